// The bytecode framework on its own: the builder's checks, the
// interpreter's instructions, operations that specialize per instruction
// (their own state word each) and report polymorphism through the root,
// back edges counted into the call target and polling for OSR, resuming at a
// bci.

#include "nodes/bytecode/bytecode.h"

#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nodes/bytecode/bytecode_builder.h"
#include "nodes/bytecode/bytecode_root_node.h"
#include "nodes/bytecode/bytecode_switch.h"
#include "nodes/bytecode/interpreter_stack.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/guest_error.h"
#include "nodes/operator_node.h"
#include "nodes/polymorphism.h"
#include "nodes/specialization.h"
#include "testing/test_language/test_runtime.h"

namespace morel::bytecode {
namespace {

class AddOperation;
class LessOperation;

double AsDouble(Value v) { return v.IsLong() ? static_cast<double>(v.AsLong()) : v.AsDouble(); }
Value AddDoubles(Value l, Value r) { return Value::Double(AsDouble(l) + AsDouble(r)); }

// The guard of the specializations on two longs.
struct OnTwoLongs {
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(c.IsLong(l), c.IsLong(r));
  }
};
struct AddLong : OnTwoLongs {
  static constexpr absl::string_view kName = "AddLong";
  template <typename C>
  static typename C::V Body(C& c, AddOperation&, typename C::V l, typename C::V r) {
    auto sum = c.AddOverflow(c.AsLong(l), c.AsLong(r));
    c.RewriteOn(sum.overflow);
    return c.BoxLong(sum.value);
  }
};
struct AddDouble {
  static constexpr absl::string_view kName = "AddDouble";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(c.Or(c.IsLong(l), c.HasTag(l, kDoubleTag)),
                 c.Or(c.IsLong(r), c.HasTag(r, kDoubleTag)));
  }
  template <typename C>
  static typename C::V Body(C& c, AddOperation&, typename C::V l, typename C::V r) {
    return c.template Call<&AddDoubles>(l, r);
  }
};

// `+` as a bytecode operation: an operator node (nodes/operator_node.h)
// whose two operands come from the stack (null operand children), so that
// a switch that inlines it reads them in place.
class AddOperation final : public OperatorNode<AddOperation, Node, Node, 2, AddLong, AddDouble>,
                           public BytecodeOperation {
 public:
  MOREL_NODE_KIND(AddOperation)
  MOREL_REPORT_POLYMORPHISM
  AddOperation() : OperatorNode(SourceSection(), nullptr, nullptr) {}
  Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    return RunOnOperands(operands);
  }
  static Value Fallback(AddOperation&, Value, Value) { throw GuestError("type error: +"); }
  std::string active() const { return specializer().ActiveNames(); }
};

class LessOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(LessOperation)
  using Node::Node;
  Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    return Value::Boolean(operands[0].AsLong() < operands[1].AsLong());
  }
};

// A root of class R (BytecodeRootNode, or a switch's root) with `locals`
// slots l0, l1, ...
template <typename R = BytecodeRootNode>
std::unique_ptr<R> Root(BytecodeProgram program, int locals) {
  auto descriptor = std::make_unique<FrameDescriptor>();
  for (int i = 0; i < locals; ++i) descriptor->AddSlot(absl::StrCat("l", i));
  return std::make_unique<R>(SourceSection(), "f", std::move(descriptor), std::move(program));
}

// The program `b` built (a test failure if it does not build).
BytecodeProgram Built(BytecodeBuilder b) {
  auto program = std::move(b).Build();
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? std::move(*program) : BytecodeProgram();
}

// sum(n): s = 0; i = 0; while (i < n) { s = s + i; i = i + 1 } return s
BytecodeProgram SumProgram(AddOperation** first_add = nullptr) {
  BytecodeBuilder b;
  b.EmitConstant(Value::Long(0));
  b.EmitStoreLocal(0);  // s
  b.EmitConstant(Value::Long(0));
  b.EmitStoreLocal(1);  // i
  auto header = b.NewLabel(), exit = b.NewLabel();
  b.Bind(header);
  b.EmitLoadLocal(1);
  b.EmitArgument(0, Value::Long(0));
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.EmitBranchFalse(exit);
  b.EmitLoadLocal(0);
  b.EmitLoadLocal(1);
  auto add = std::make_unique<AddOperation>();
  if (first_add != nullptr) *first_add = add.get();
  b.EmitOperation(std::move(add), 2);
  b.EmitStoreLocal(0);
  b.EmitLoadLocal(1);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitStoreLocal(1);
  b.EmitBranch(header);
  b.Bind(exit);
  b.EmitLoadLocal(0);
  b.EmitReturn();
  return Built(std::move(b));
}

TEST(BytecodeTest, RunsALoopAndCountsItsBackEdges) {
  test_language::TestRuntime runtime;
  CallTarget* target = runtime.CreateCallTarget(Root(SumProgram(), 2));
  EXPECT_EQ(target->Call({Value::Long(10)}).AsLong(), 45);
  EXPECT_EQ(target->Call({Value::Long(3000)}).AsLong(), 3000 * 2999 / 2);
  // Every back edge is a loop iteration of the call target (10 + 3000),
  // reported every 1024 and when the activation returns.
  int reported = 0;
  for (const auto& report : runtime.loop_reports()) reported += report.iterations;
  EXPECT_EQ(reported, 3010);
  EXPECT_GE(target->call_and_loop_count(), 3010);
}

TEST(BytecodeTest, EachInstructionSpecializesOnItsOwn) {
  test_language::TestRuntime runtime;
  AddOperation* sum_add = nullptr;
  auto root = Root(SumProgram(&sum_add), 2);
  BytecodeRootNode* raw = root.get();
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  target->Call({Value::Long(5)});
  EXPECT_EQ(sum_add->active(), "AddLong");
  EXPECT_TRUE(runtime.polymorphic_reports().empty());
  // The operations are the root's children, in index order.
  std::vector<std::string> kinds;
  raw->ForEachChild(
      [&](ChildSlot& slot) { kinds.push_back(std::string(slot.get()->kind_name())); });
  EXPECT_EQ(kinds, (std::vector<std::string>{"LessOperation", "AddOperation", "AddOperation"}));
  EXPECT_EQ(sum_add->GetRootNode(), raw);
  EXPECT_EQ(raw->CountNodes(), 4);
}

TEST(BytecodeTest, AnOperationReportsPolymorphismThroughItsRoot) {
  test_language::TestRuntime runtime;
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(0));
  b.EmitArgument(1, Value::Long(0));
  auto add = std::make_unique<AddOperation>();
  AddOperation* op = add.get();
  b.EmitOperation(std::move(add), 2);
  b.EmitReturn();
  auto program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  CallTarget* target = runtime.CreateCallTarget(Root(std::move(*program), 0));
  EXPECT_EQ(target->Call({Value::Long(1), Value::Long(2)}).AsLong(), 3);
  EXPECT_EQ(target->Call({Value::Long(1), Value::Double(0.5)}).AsDouble(), 1.5);
  EXPECT_EQ(op->active(), "AddLong,AddDouble");
  EXPECT_EQ(runtime.polymorphic_reports(), std::vector<std::string>{"AddOperation"});
  // Missing arguments take the builder's value.
  EXPECT_EQ(target->Call({Value::Long(7)}).AsLong(), 7);
}

TEST(BytecodeTest, ShortCircuitAndOr) {
  // f(a, b) = (a && b), (a || b) as 2 * and + or, with identity conversion.
  for (auto kind : {BytecodeBuilder::ShortCircuit::kAnd, BytecodeBuilder::ShortCircuit::kOr}) {
    test_language::TestRuntime runtime;
    BytecodeBuilder b;
    b.EmitShortCircuit(
        kind, [&] { b.EmitArgument(0, Value::Boolean(false)); },
        [&] { b.EmitArgument(1, Value::Boolean(false)); }, [] {});
    b.EmitReturn();
    auto program = std::move(b).Build();
    ASSERT_TRUE(program.ok()) << program.status();
    CallTarget* target = runtime.CreateCallTarget(Root(std::move(*program), 0));
    for (bool x : {false, true}) {
      for (bool y : {false, true}) {
        const bool want = kind == BytecodeBuilder::ShortCircuit::kAnd ? x && y : x || y;
        EXPECT_EQ(target->Call({Value::Boolean(x), Value::Boolean(y)}).AsBoolean(), want);
      }
    }
  }
}

// Resumes SumProgram's code for sum(10) at `next_child` (Resume's two
// forms) with locals s and i and the operand stack `stack`; its result.
int64_t ResumeSumWith(BytecodeRootNode* raw, int next_child, int64_t s, int64_t i,
                      const std::vector<Value>& stack) {
  std::vector<Value> storage(raw->frame_storage_size(), Value::Illegal());
  std::vector<Value> args = {Value::Long(10)};
  Frame frame(&raw->frame_descriptor(), storage.data(), args, raw, nullptr);
  frame.Set(0, Value::Long(s));
  frame.Set(1, Value::Long(i));
  std::vector<Outcome> done;
  for (Value v : stack) done.push_back(Outcome::OfValue(v));
  return raw->Resume(frame, next_child, done).value.AsLong();
}
int64_t ResumeSum(BytecodeRootNode* raw, int next_child, int64_t s, int64_t i,
                  const std::vector<int64_t>& stack) {
  std::vector<Value> values;
  for (int64_t v : stack) values.push_back(Value::Long(v));
  return ResumeSumWith(raw, next_child, s, i, values);
}

// The first instruction with `opcode`, or -1.
int BciOf(const BytecodeRootNode& root, Opcode opcode) {
  for (int bci : Bcis(root.code())) {
    if (static_cast<Opcode>(root.code()[bci]) == opcode) return bci;
  }
  return -1;
}

// Resumed after an operation whose branch fused into it (i < n in
// SumProgram, op.branch.false), the branch goes the way the result says.
TEST(BytecodeTest, ResumesAfterAnOperationWithAFusedBranch) {
  test_language::TestRuntime runtime;
  auto root = Root(SumProgram(), 2);
  BytecodeRootNode* raw = root.get();
  runtime.CreateCallTarget(std::move(root));
  const int bci = BciOf(*raw, Opcode::kOperationBranchFalse);
  ASSERT_GE(bci, 0);
  // i = 4, s = 6, with `i < n`'s result (the loads of i and n popped):
  // true continues the loop (6 + 4 + ... + 9), false leaves it.
  EXPECT_EQ(ResumeSumWith(raw, bci + 1, 6, 4, {Value::Boolean(true)}), 45);
  EXPECT_EQ(ResumeSumWith(raw, bci + 1, 6, 4, {Value::Boolean(false)}), 6);
}

TEST(BytecodeTest, ResumesAtABciWithItsStack) {
  test_language::TestRuntime runtime;
  auto root = Root(SumProgram(), 2);
  BytecodeRootNode* raw = root.get();
  runtime.CreateCallTarget(std::move(root));
  // Find the first add (s + i: op.local.local.store, both operands fused
  // from the locals): an empty stack before it.
  int add_bci = -1;
  for (int bci : Bcis(raw->code())) {
    if (IsOperation(static_cast<Opcode>(raw->code()[bci])) &&
        raw->operation_node(raw->code()[bci + 1])->kind_name() == "AddOperation") {
      add_bci = bci;
      break;
    }
  }
  ASSERT_GE(add_bci, 0);
  EXPECT_EQ(raw->stack_height(add_bci), 0);
  // In the middle of iteration i = 4 (s = 6), at the add.
  EXPECT_EQ(ResumeSum(raw, add_bci, 6, 4, {}), 45);
  // The same point, the add having run elsewhere with result 10: the
  // stack below its operands (empty), then the result, after the add.
  EXPECT_EQ(ResumeSum(raw, add_bci + 1, 6, 4, {10}), 45);
}

// The operands pushed right before an operation fuse into it, and so does
// a store.local right after it; they resume at their start and after the
// operation as an op does.
TEST(BytecodeTest, OperandsAndAStoreFuseIntoTheirOperation) {
  test_language::TestRuntime runtime;
  auto root = Root(SumProgram(), 2);
  BytecodeRootNode* raw = root.get();
  runtime.CreateCallTarget(std::move(root));
  const std::string text = raw->Disassemble();
  // i = i + 1: operation 2 on local 1 and constant 3, no stack operand,
  // stored into local 1.
  EXPECT_NE(text.find("op.local.const.store 2 1 3 0 1   ; AddOperation"), std::string::npos)
      << text;
  // s = s + i: operation 1 on locals 0 and 1, stored into local 0.
  EXPECT_NE(text.find("op.local.local.store 1 0 1 0 0   ; AddOperation"), std::string::npos)
      << text;
  const int bci = BciOf(*raw, Opcode::kOperationLocalConstantStore);
  ASSERT_GE(bci, 0);
  EXPECT_EQ(raw->stack_height(bci), 0);
  // Iteration i = 4 after s = s + i (s = 10): at the add, and after it
  // with its result 5.
  EXPECT_EQ(ResumeSum(raw, bci, 10, 4, {}), 45);
  EXPECT_EQ(ResumeSum(raw, bci + 1, 10, 4, {5}), 45);
}

// Nothing fuses across a label: a branch there would skip the fused part.
TEST(BytecodeTest, NothingFusesAcrossALabel) {
  BytecodeBuilder b;
  b.EmitConstant(Value::Long(1));
  b.EmitConstant(Value::Long(2));
  b.Bind(b.NewLabel());
  b.EmitOperation(std::make_unique<AddOperation>(), 2);  // op
  b.EmitLoadLocal(0);
  b.Bind(b.NewLabel());
  b.EmitLoadLocal(1);
  b.EmitOperation(std::make_unique<AddOperation>(), 2);  // the second read only
  b.Bind(b.NewLabel());
  b.EmitLoadLocal(1);
  b.EmitOperation(std::make_unique<AddOperation>(), 2);  // op.local from the label on
  b.Bind(b.NewLabel());
  b.EmitStoreLocal(0);  // not into the operation
  b.EmitConstant(Value::Long(0));
  b.EmitReturn();
  auto program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(bytecode::Disassemble(program->code),
            "  0: constant 0\n"
            "  2: constant 1\n"
            "  4: op 0 2\n"
            "  7: load.local 0\n"
            "  9: op.local 1 1 1\n"
            "  13: op.local 2 1 1\n"
            "  17: store.local 0\n"
            "  19: constant 2\n"
            "  21: return\n");
}

// A conditional branch right after an operation that pushes its result
// fuses into it (the operation's other fused parts stay), unless a label
// lies between them; an unconditional branch never fuses.
TEST(BytecodeTest, AConditionalBranchFusesIntoTheOperationBeforeIt) {
  BytecodeBuilder b;
  auto done = b.NewLabel(), other = b.NewLabel();
  b.EmitLoadLocal(0);
  b.EmitConstant(Value::Long(3));
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.EmitBranchFalse(done);  // op.local.const.branch.false
  b.EmitLoadLocal(0);
  b.EmitLoadLocal(1);
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.EmitBranchTrue(other);  // op.local.local.branch.true
  b.EmitArgument(0, Value::Long(0));
  b.EmitArgument(1, Value::Long(0));
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.Bind(b.NewLabel());
  b.EmitBranchFalse(done);  // not across the label
  b.EmitArgument(0, Value::Long(0));
  b.EmitArgument(1, Value::Long(0));
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.EmitPop();
  b.EmitBranch(done);
  b.Bind(other);
  b.EmitConstant(Value::Long(2));
  b.EmitReturn();
  b.Bind(done);
  b.EmitConstant(Value::Long(1));
  b.EmitReturn();
  auto program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(bytecode::Disassemble(program->code),
            "  0: op.local.const.branch.false 0 0 0 0 38\n"
            "  6: op.local.local.branch.true 1 0 1 0 35\n"
            "  12: argument 0 1\n"
            "  15: argument 1 2\n"
            "  18: op 2 2\n"
            "  21: branch.false 38\n"
            "  23: argument 0 3\n"
            "  26: argument 1 4\n"
            "  29: op 3 2\n"
            "  32: pop\n"
            "  33: branch 38\n"
            "  35: constant 5\n"
            "  37: return\n"
            "  38: constant 6\n"
            "  40: return\n");
}

// Returning a local is one instruction (return.local), unless a label lies
// between the read and the return.
TEST(BytecodeTest, AReturnOfALocalIsOneInstruction) {
  test_language::TestRuntime runtime;
  BytecodeBuilder b;
  auto other = b.NewLabel();
  b.EmitArgument(0, Value::Long(0));
  b.EmitStoreLocal(0);
  b.EmitArgument(0, Value::Long(0));
  b.EmitConstant(Value::Long(3));
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.EmitBranchTrue(other);
  b.EmitLoadLocal(0);
  b.EmitReturn();
  b.Bind(other);
  b.EmitLoadLocal(0);
  b.Bind(b.NewLabel());
  b.EmitReturn();
  BytecodeProgram program = Built(std::move(b));
  EXPECT_EQ(bytecode::Disassemble(program.code),
            "  0: argument.store 0 0 0\n"
            "  4: argument 0 1\n"
            "  7: op.const.branch.true 0 2 1 14\n"
            "  12: return.local 0\n"
            "  14: load.local 0\n"
            "  16: return\n");
  CallTarget* target = runtime.CreateCallTarget(Root(std::move(program), 1));
  EXPECT_EQ(target->Call({Value::Long(7)}).AsLong(), 7);
  EXPECT_EQ(target->Call({Value::Long(2)}).AsLong(), 2);
}

// A parameter's copy into its local is one instruction (argument.store),
// unless a label lies between the two; a missing argument is the constant.
TEST(BytecodeTest, AnArgumentFusesWithTheStoreAfterIt) {
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(0));
  b.EmitStoreLocal(0);
  b.EmitArgument(1, Value::Long(10));
  b.Bind(b.NewLabel());
  b.EmitStoreLocal(1);
  b.EmitLoadLocal(0);
  b.EmitLoadLocal(1);
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitReturn();
  auto program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(bytecode::Disassemble(program->code),
            "  0: argument.store 0 0 0\n"
            "  4: argument 1 1\n"
            "  7: store.local 1\n"
            "  9: op.local.local 0 0 1 0\n"
            "  14: return\n");
  test_language::TestRuntime runtime;
  CallTarget* target = runtime.CreateCallTarget(Root(std::move(*program), 2));
  EXPECT_EQ(target->Call({Value::Long(3), Value::Long(4)}).AsLong(), 7);
  EXPECT_EQ(target->Call({Value::Long(3)}).AsLong(), 13);
}

// Every operation form, in a program that computes with each:
//   l0 = a + b; l1 = a + 5; l2 = l0 + l1; l2 = l2 + 1; l1 = a + l2;
//   return (a + 2) + ((a + l0) + ((l0 + l1) + (l2 + 3)))
BytecodeProgram EveryFormProgram() {
  BytecodeBuilder b;
  auto add = [&b] { b.EmitOperation(std::make_unique<AddOperation>(), 2); };
  b.EmitArgument(0, Value::Long(0));
  b.EmitArgument(1, Value::Long(0));
  add();
  b.EmitStoreLocal(0);  // op.store
  b.EmitArgument(0, Value::Long(0));
  b.EmitConstant(Value::Long(5));
  add();
  b.EmitStoreLocal(1);  // op.const.store
  b.EmitLoadLocal(0);
  b.EmitLoadLocal(1);
  add();
  b.EmitStoreLocal(2);  // op.local.local.store
  b.EmitLoadLocal(2);
  b.EmitConstant(Value::Long(1));
  add();
  b.EmitStoreLocal(2);  // op.local.const.store
  b.EmitArgument(0, Value::Long(0));
  b.EmitLoadLocal(2);
  add();
  b.EmitStoreLocal(1);  // op.local.store
  b.EmitArgument(0, Value::Long(0));
  b.EmitConstant(Value::Long(2));
  add();  // op.const
  b.EmitArgument(0, Value::Long(0));
  b.EmitLoadLocal(0);
  add();  // op.local
  b.EmitLoadLocal(0);
  b.EmitLoadLocal(1);
  add();  // op.local.local
  b.EmitLoadLocal(2);
  b.EmitConstant(Value::Long(3));
  add();  // op.local.const
  add();  // op
  add();
  add();
  b.EmitReturn();
  return Built(std::move(b));
}

std::vector<absl::string_view> OperationMnemonics(const BytecodeRootNode& root) {
  std::vector<absl::string_view> mnemonics;
  for (int bci : Bcis(root.code())) {
    const Opcode op = static_cast<Opcode>(root.code()[bci]);
    if (IsOperation(op)) mnemonics.push_back(Info(op).mnemonic);
  }
  return mnemonics;
}

// Emits `l0 = 0; while (l0 < bound) l0 = l0 + 1;`, the bound pushed by
// `emit_bound`; returns the loop header's bci.
int EmitCountUp(BytecodeBuilder& b, absl::FunctionRef<void()> emit_bound) {
  b.EmitConstant(Value::Long(0));
  b.EmitStoreLocal(0);
  auto header = b.NewLabel(), exit = b.NewLabel();
  b.Bind(header);
  const int header_bci = b.bci();
  b.EmitLoadLocal(0);
  emit_bound();
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.EmitBranchFalse(exit);
  b.EmitLoadLocal(0);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitStoreLocal(0);
  b.EmitBranch(header);
  b.Bind(exit);
  return header_bci;
}

// c + count(n), with c = 7 kept on the operand stack across the loop:
// 7; i = 0; while (i < n) { i = i + 1 }; return 7 + i. The loop header's
// stack holds the 7.
BytecodeProgram StackedLoopProgram(int* header_bci) {
  BytecodeBuilder b;
  b.EmitConstant(Value::Long(7));
  *header_bci = EmitCountUp(b, [&] { b.EmitArgument(0, Value::Long(0)); });
  b.EmitLoadLocal(0);
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitReturn();
  return Built(std::move(b));
}

// A runtime offering bytecode OSR: a poll is due every `interval` back
// edges of the method (0: the default, no OSR); TryOSR records each try and
// "runs OSR code" (returns `osr_result` as the function's result) once the
// method's count is at `accept_at`.
class OsrPollingRuntime final : public test_language::TestRuntime {
 public:
  struct Try {
    int target_bci;
    int64_t back_edges;         // the method's count
    int64_t interpreter_state;  // the header's stack height
    int64_t stack_bottom;       // the header's operand stack, from the frame
    int64_t i;                  // local 0
    bool on_interpreter_stack;  // the frame (a callee the switch runs)
  };
  bool OnBytecodeOSRPoll(BytecodeOSRNode& node, int64_t previous, int64_t count) override {
    if (interval == 0) return NodeRuntime::OnBytecodeOSRPoll(node, previous, count);
    if (node.GetOSRMetadata() == nullptr) node.SetOSRMetadata(&metadata);
    node.SetOSRNextPoll((count / interval + 1) * interval);
    return (previous / interval + 1) * interval <= count;
  }
  std::optional<Value> TryBytecodeOSR(BytecodeOSRNode& node, int target_bci,
                                      int64_t interpreter_state,
                                      absl::FunctionRef<void()> before_transfer,
                                      Frame& frame) override {
    auto* root = dynamic_cast<BytecodeRootNode*>(&node.AsNode());
    EXPECT_NE(root, nullptr);
    EXPECT_EQ(root->stack_height(target_bci), interpreter_state);
    tries.push_back(Try{target_bci, node.osr_back_edge_count(), interpreter_state,
                        frame.slot_storage()[root->stack_base()].AsLong(), frame.Get(0).AsLong(),
                        InterpreterStack::ForThisThread().Contains(&frame)});
    if (node.osr_back_edge_count() < accept_at) return std::nullopt;
    before_transfer();
    return Value::Long(osr_result);
  }

  int64_t interval = 0;
  int64_t accept_at = INT64_MAX;
  int64_t osr_result = -1;
  BytecodeOSRMetadata metadata;
  std::vector<Try> tries;
};

TEST(BytecodeTest, BackEdgesPollForOsrWithTheHeadersStackInTheFrame) {
  OsrPollingRuntime runtime;
  runtime.interval = 1024;
  int header = -1;
  CallTarget* target = runtime.CreateCallTarget(Root(StackedLoopProgram(&header), 1));
  auto* root = dynamic_cast<BytecodeRootNode*>(target->root_node());
  EXPECT_EQ(root->GetOSRMetadata(), nullptr);  // created at the first poll
  // A poll every 1024 back edges, at the back edge's target, with the
  // operand stack there (its height as the interpreter state) and the
  // locals in the frame.
  EXPECT_EQ(target->Call({Value::Long(3000)}).AsLong(), 3007);
  EXPECT_EQ(root->GetOSRMetadata(), &runtime.metadata);
  ASSERT_EQ(runtime.tries.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(runtime.tries[k].target_bci, header);
    EXPECT_EQ(runtime.tries[k].back_edges, 1024 * (k + 1));
    EXPECT_EQ(runtime.tries[k].interpreter_state, 1);
    EXPECT_EQ(runtime.tries[k].stack_bottom, 7);
    EXPECT_EQ(runtime.tries[k].i, 1024 * (k + 1));
  }
  EXPECT_EQ(root->osr_back_edge_count(), 3000);
  // The count is the method's, across activations (Truffle's
  // BytecodeOSRMetadata): the next polls are at 3072 and 4096, the 72nd
  // and the 1096th back edge.
  runtime.tries.clear();
  EXPECT_EQ(target->Call({Value::Long(1500)}).AsLong(), 1507);
  ASSERT_EQ(runtime.tries.size(), 2u);
  EXPECT_EQ(runtime.tries[0].back_edges, 3072);
  EXPECT_EQ(runtime.tries[0].i, 72);
  EXPECT_EQ(runtime.tries[1].back_edges, 4096);
  EXPECT_EQ(runtime.tries[1].i, 1096);
  // A try that ran OSR code: its result is the function's.
  runtime.accept_at = 6144;
  runtime.osr_result = 99;
  runtime.tries.clear();
  EXPECT_EQ(target->Call({Value::Long(3000)}).AsLong(), 99);
  ASSERT_EQ(runtime.tries.size(), 2u);
  EXPECT_EQ(runtime.tries[0].i, 620);
  EXPECT_EQ(runtime.tries[1].i, 1644);
}

TEST(BytecodeTest, OsrPollsEveryBackEdgeOrNeverWithoutARuntimeOfferingIt) {
  OsrPollingRuntime runtime;
  runtime.interval = 1;
  int header = -1;
  CallTarget* target = runtime.CreateCallTarget(Root(StackedLoopProgram(&header), 1));
  EXPECT_EQ(target->Call({Value::Long(5)}).AsLong(), 12);
  ASSERT_EQ(runtime.tries.size(), 5u);
  EXPECT_EQ(runtime.tries[0].back_edges, 1);
  EXPECT_EQ(runtime.tries[0].i, 1);

  OsrPollingRuntime off;  // NodeRuntime's default: no OSR
  CallTarget* quiet = off.CreateCallTarget(Root(StackedLoopProgram(&header), 1));
  EXPECT_EQ(quiet->Call({Value::Long(5000)}).AsLong(), 5007);
  EXPECT_TRUE(off.tries.empty());
  auto* root = dynamic_cast<BytecodeRootNode*>(quiet->root_node());
  EXPECT_EQ(root->GetOSRMetadata(), BytecodeOSRMetadata::Disabled());
  EXPECT_EQ(root->osr_next_poll(), BytecodeOSRNode::kNeverPoll);
}

// An operation that rewrites itself into another (as a node may, with
// Replace): the instruction runs the replacement from then on.
class ConstantOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(ConstantOperation)
  explicit ConstantOperation(int64_t value) : value_(value) {}
  Value ExecuteOperation(Frame&, absl::Span<const Value>) override { return Value::Long(value_); }

 private:
  int64_t value_;
};

class SelfReplacingOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(SelfReplacingOperation)
  Value ExecuteOperation(Frame&, absl::Span<const Value>) override {
    std::lock_guard<std::recursive_mutex> lock(GetRootNode()->lock());
    Replace(std::make_unique<ConstantOperation>(2), "second time");
    return Value::Long(1);
  }
};

TEST(BytecodeTest, AnOperationReplacedByAnotherRunsTheReplacement) {
  test_language::TestRuntime runtime;
  BytecodeBuilder b;
  b.EmitOperation(std::make_unique<SelfReplacingOperation>(), 0);
  b.EmitReturn();
  auto program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  auto root = Root(std::move(*program), 0);
  BytecodeRootNode* raw = root.get();
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  EXPECT_EQ(target->Call({}).AsLong(), 1);
  EXPECT_EQ(target->Call({}).AsLong(), 2);
  EXPECT_EQ(raw->operation_node(0)->kind_name(), "ConstantOperation");
  EXPECT_EQ(raw->operation_node(0)->parent(), raw);
}

// ----------------------------------------------------- the interpreter switch

// LessOperation as a class the switch inlines: an operator node, as
// AddOperation is.
class InlinedLessOperation;
struct LessLong : OnTwoLongs {
  static constexpr absl::string_view kName = "LessLong";
  template <typename C>
  static typename C::V Body(C& c, InlinedLessOperation&, typename C::V l, typename C::V r) {
    return c.BoxBoolean(c.LongLess(c.AsLong(l), c.AsLong(r)));
  }
};
class InlinedLessOperation final
    : public OperatorNode<InlinedLessOperation, Node, Node, 2, LessLong>,
      public BytecodeOperation {
 public:
  MOREL_NODE_KIND(InlinedLessOperation)
  InlinedLessOperation() : OperatorNode(SourceSection(), nullptr, nullptr) {}
  Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    return RunOnOperands(operands);
  }
  static Value Fallback(InlinedLessOperation&, Value, Value) { throw GuestError("type error: <"); }
};

// A root whose switch inlines AddOperation, SelfReplacingOperation and
// InlinedLessOperation (not LessOperation, nor ConstantOperation).
using TestInlined = InlinedOperations<AddOperation, SelfReplacingOperation, InlinedLessOperation>;
// The operator nodes read their operands in place; the other class gets
// them as one span on the stack.
static_assert(switch_internal::OperandsInPlace<TestInlined, 0>() &&
              !switch_internal::OperandsInPlace<TestInlined, 1>() &&
              switch_internal::OperandsInPlace<TestInlined, 2>());
class SwitchRoot final : public BytecodeRootNodeWith<TestInlined> {
 public:
  MOREL_NODE_KIND(SwitchRoot)
  using BytecodeRootNodeWith::BytecodeRootNodeWith;
};
// The same classes, the operator nodes called (out of line, in place)
// instead of inlined.
using TestCalled = InlinedOperations<CalledOperation<AddOperation>, SelfReplacingOperation,
                                     CalledOperation<InlinedLessOperation>>;
static_assert(TestCalled::kCalled<0> && !TestCalled::kCalled<1> && TestCalled::kCalled<2> &&
              switch_internal::OperandsInPlace<TestCalled, 0>() &&
              switch_internal::OperandsInPlace<TestCalled, 2>());
class CalledSwitchRoot final : public BytecodeRootNodeWith<TestCalled> {
 public:
  MOREL_NODE_KIND(CalledSwitchRoot)
  using BytecodeRootNodeWith::BytecodeRootNodeWith;
};

// The tests that run every form in a switch run in both.
template <typename R>
class EverySwitchTest : public testing::Test {};
using SwitchRoots = testing::Types<SwitchRoot, CalledSwitchRoot>;
TYPED_TEST_SUITE(EverySwitchTest, SwitchRoots);

// The opcodes of the quickened code where it differs from the code, by bci.
std::vector<std::pair<int, int32_t>> Quickened(const BytecodeRootNode& root) {
  std::vector<std::pair<int, int32_t>> differing;
  for (int bci : Bcis(root.code())) {
    if (root.quickened_code()[bci] != root.code()[bci]) {
      differing.push_back({bci, root.quickened_code()[bci]});
    }
  }
  return differing;
}

TEST(BytecodeSwitchTest, QuickensTheOperationsOfInlinedClassesOnly) {
  EXPECT_EQ(TestInlined::IndexOf(AddOperation()), 0);
  EXPECT_EQ(TestInlined::IndexOf(SelfReplacingOperation()), 1);
  EXPECT_EQ(TestInlined::IndexOf(LessOperation()), -1);

  test_language::TestRuntime runtime;
  auto root = Root<SwitchRoot>(SumProgram(), 2);
  SwitchRoot* raw = root.get();
  // Both adds (s = s + i: op.local.local.store; i = i + 1:
  // op.local.const.store) are quickened for class 0; the comparison keeps
  // the generic `op`.
  const int store = BciOf(*raw, Opcode::kOperationLocalLocalStore);
  const int constant_store = BciOf(*raw, Opcode::kOperationLocalConstantStore);
  ASSERT_GE(store, 0);
  ASSERT_GE(constant_store, 0);
  EXPECT_EQ(
      Quickened(*raw),
      (std::vector<std::pair<int, int32_t>>{
          {store, QuickenedOpcode(OperationForm::kOperationLocalLocalStore, 0)},
          {constant_store, QuickenedOpcode(OperationForm::kOperationLocalConstantStore, 0)}}));
  // The code everything else reads is the builder's.
  EXPECT_NE(raw->Disassemble().find("op.local.local.store 1 0 1 0 0   ; AddOperation"),
            std::string::npos);

  // It computes what the generic switch computes, and specializes and
  // counts back edges the same way.
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  CallTarget* generic = runtime.CreateCallTarget(Root(SumProgram(), 2));
  for (int64_t n : {0, 1, 10, 3000}) {
    EXPECT_EQ(target->Call({Value::Long(n)}).AsLong(), generic->Call({Value::Long(n)}).AsLong());
  }
  EXPECT_EQ(target->call_and_loop_count(), generic->call_and_loop_count());
  auto* add = dynamic_cast<AddOperation*>(raw->operation_node(1));
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->active(), "AddLong");
  // Resuming after the quickened op.local.local.store (s = s + i with
  // i = 4, s = 6 before it: its result 10 on the stack) continues in the
  // switch.
  EXPECT_EQ(ResumeSum(raw, store + 1, 6, 4, {10}), 45);
}

// Every branching form, each followed by a body that adds its own bit to
// r (local 2) when the branch does not skip it, then a do-while loop whose
// fused branch is a back edge: with arguments a and b, l0 = a, l1 = b,
// r = 0, and for each operand shape and sense, `if (x < y) goto skip`
// (branch.true) or `if (!(x < y)) goto skip` (branch.false); then
// `i = a; do { r = r + 1024; i = i + 1 } while (i < b)`; return r.
BytecodeProgram EveryBranchFormProgram() {
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(0));
  b.EmitStoreLocal(0);
  b.EmitArgument(1, Value::Long(0));
  b.EmitStoreLocal(1);
  b.EmitConstant(Value::Long(0));
  b.EmitStoreLocal(2);
  int64_t bit = 1;
  for (bool branch_if : {false, true}) {
    for (int shape = 0; shape < 5; ++shape) {
      switch (shape) {
        case 0:  // op: a, b
          b.EmitArgument(0, Value::Long(0));
          b.EmitArgument(1, Value::Long(0));
          break;
        case 1:  // op.const: a, 5
          b.EmitArgument(0, Value::Long(0));
          b.EmitConstant(Value::Long(5));
          break;
        case 2:  // op.local: a, l1
          b.EmitArgument(0, Value::Long(0));
          b.EmitLoadLocal(1);
          break;
        case 3:  // op.local.local: l0, l1
          b.EmitLoadLocal(0);
          b.EmitLoadLocal(1);
          break;
        case 4:  // op.local.const: l0, 3
          b.EmitLoadLocal(0);
          b.EmitConstant(Value::Long(3));
          break;
      }
      b.EmitOperation(std::make_unique<InlinedLessOperation>(), 2);
      auto skip = b.NewLabel();
      if (branch_if) {
        b.EmitBranchTrue(skip);
      } else {
        b.EmitBranchFalse(skip);
      }
      b.EmitLoadLocal(2);
      b.EmitConstant(Value::Long(bit));
      b.EmitOperation(std::make_unique<AddOperation>(), 2);
      b.EmitStoreLocal(2);
      b.Bind(skip);
      bit *= 2;
    }
  }
  b.EmitArgument(0, Value::Long(0));
  b.EmitStoreLocal(3);
  auto header = b.NewLabel();
  b.Bind(header);
  b.EmitLoadLocal(2);
  b.EmitConstant(Value::Long(1024));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitStoreLocal(2);
  b.EmitLoadLocal(3);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitStoreLocal(3);
  b.EmitLoadLocal(3);
  b.EmitLoadLocal(1);
  b.EmitOperation(std::make_unique<InlinedLessOperation>(), 2);
  b.EmitBranchTrue(header);
  b.EmitLoadLocal(2);
  b.EmitReturn();
  return Built(std::move(b));
}

// EveryBranchFormProgram's result, computed here.
int64_t EveryBranchFormResult(int64_t a, int64_t b) {
  const int64_t x[] = {a, a, a, a, a};
  const int64_t y[] = {b, 5, b, b, 3};
  int64_t r = 0, bit = 1;
  for (bool branch_if : {false, true}) {
    for (int shape = 0; shape < 5; ++shape) {
      if ((x[shape] < y[shape]) != branch_if) r += bit;
      bit *= 2;
    }
  }
  int64_t i = a;
  do {
    r += 1024;
    ++i;
  } while (i < b);
  return r;
}

TYPED_TEST(EverySwitchTest, EveryBranchFormRunsQuickenedAsInTheGenericSwitch) {
  test_language::TestRuntime runtime;
  auto root = Root<TypeParam>(EveryBranchFormProgram(), 4);
  TypeParam* raw = root.get();
  std::vector<absl::string_view> branching;
  for (absl::string_view mnemonic : OperationMnemonics(*raw)) {
    if (absl::StrContains(mnemonic, "branch")) branching.push_back(mnemonic);
  }
  EXPECT_EQ(branching,
            (std::vector<absl::string_view>{
                "op.branch.false", "op.const.branch.false", "op.local.branch.false",
                "op.local.local.branch.false", "op.local.const.branch.false", "op.branch.true",
                "op.const.branch.true", "op.local.branch.true", "op.local.local.branch.true",
                "op.local.const.branch.true", "op.local.local.branch.true"}));
  // Each comparison is quickened in its own form (class 2).
  int quickened = 0;
  for (const auto& [bci, opcode] : Quickened(*raw)) {
    if (raw->operation_node(raw->code()[bci + 1])->kind_name() != "InlinedLessOperation") {
      continue;
    }
    EXPECT_EQ(opcode, QuickenedOpcode(FormOf(static_cast<Opcode>(raw->code()[bci])), 2)) << bci;
    ++quickened;
  }
  EXPECT_EQ(quickened, 11);
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  CallTarget* generic = runtime.CreateCallTarget(Root(EveryBranchFormProgram(), 4));
  for (auto [a, b] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 2}, {2, 1}, {4, 4}, {7, 9}, {-3, 20}, {6, 2}, {0, 0}}) {
    EXPECT_EQ(target->Call({Value::Long(a), Value::Long(b)}).AsLong(), EveryBranchFormResult(a, b))
        << a << " " << b;
    EXPECT_EQ(generic->Call({Value::Long(a), Value::Long(b)}).AsLong(), EveryBranchFormResult(a, b))
        << a << " " << b;
  }
  // The do-while's fused branch counts its back edges in both.
  EXPECT_EQ(target->call_and_loop_count(), generic->call_and_loop_count());
  EXPECT_GT(target->call_and_loop_count(), 7 + 20);
}

TYPED_TEST(EverySwitchTest, EveryOperationFormRunsQuickenedAsInTheGenericSwitch) {
  test_language::TestRuntime runtime;
  auto root = Root<TypeParam>(EveryFormProgram(), 3);
  TypeParam* raw = root.get();
  EXPECT_EQ(OperationMnemonics(*raw),
            (std::vector<absl::string_view>{"op.store", "op.const.store", "op.local.local.store",
                                            "op.local.const.store", "op.local.store", "op.const",
                                            "op.local", "op.local.local", "op.local.const", "op",
                                            "op", "op"}));
  // Each is quickened in its own form.
  const std::vector<std::pair<int, int32_t>> quickened = Quickened(*raw);
  EXPECT_EQ(quickened.size(), 12u);
  for (const auto& [bci, opcode] : quickened) {
    EXPECT_EQ(opcode, QuickenedOpcode(FormOf(static_cast<Opcode>(raw->code()[bci])), 0)) << bci;
  }
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  CallTarget* generic = runtime.CreateCallTarget(Root(EveryFormProgram(), 3));
  // a = 1, b = 2: l0 = 3, l1 = 6, l2 = 10, then l1 = 11; 3 + 4 + 14 + 13.
  EXPECT_EQ(target->Call({Value::Long(1), Value::Long(2)}).AsLong(), 34);
  EXPECT_EQ(generic->Call({Value::Long(1), Value::Long(2)}).AsLong(), 34);
  EXPECT_EQ(target->Call({Value::Long(-4), Value::Long(7)}).AsLong(),
            generic->Call({Value::Long(-4), Value::Long(7)}).AsLong());
}

TYPED_TEST(EverySwitchTest, AnInlinedOperationKeepsItsSlowPathsAndRewrites) {
  // The inlined add leaves AddLong for AddDouble (its ExecuteRest; on
  // overflow AddLong rewrites and is excluded) and reports polymorphism as
  // when called through the vtable.
  test_language::TestRuntime runtime;
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(0));
  b.EmitArgument(1, Value::Long(0));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitReturn();
  auto program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  auto root = Root<TypeParam>(std::move(*program), 0);
  TypeParam* raw = root.get();
  EXPECT_EQ(Quickened(*raw).size(), 1u);
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  EXPECT_EQ(target->Call({Value::Long(1), Value::Long(2)}).AsLong(), 3);
  EXPECT_EQ(target->Call({Value::Long(INT64_MAX), Value::Long(1)}).AsDouble(),
            static_cast<double>(INT64_MAX) + 1.0);
  EXPECT_EQ(target->Call({Value::Long(1), Value::Double(0.5)}).AsDouble(), 1.5);
  EXPECT_EQ(dynamic_cast<AddOperation*>(raw->operation_node(0))->active(), "AddDouble");
  EXPECT_EQ(runtime.polymorphic_reports(), std::vector<std::string>{"AddOperation"});
}

TYPED_TEST(EverySwitchTest, AnOperationInPlaceTakesItsSlowPathOnTheOperandsTheInstructionNames) {
  // (a + 0.5) + a, the adds fused with their local and constant operands:
  // read in place (AddOperation is an operator node), also when the add
  // misses its inline specializations (AddDouble calls) and runs them out
  // of line.
  test_language::TestRuntime runtime;
  auto program = [] {
    BytecodeBuilder b;
    b.EmitArgument(0, Value::Long(0));
    b.EmitStoreLocal(0);
    b.EmitLoadLocal(0);
    b.EmitConstant(Value::Double(0.5));
    b.EmitOperation(std::make_unique<AddOperation>(), 2);
    b.EmitStoreLocal(1);
    b.EmitLoadLocal(1);
    b.EmitLoadLocal(0);
    b.EmitOperation(std::make_unique<AddOperation>(), 2);
    b.EmitReturn();
    return Built(std::move(b));
  };
  auto root = Root<TypeParam>(program(), 2);
  EXPECT_EQ(OperationMnemonics(*root),
            (std::vector<absl::string_view>{"op.local.const.store", "op.local.local"}));
  EXPECT_EQ(Quickened(*root).size(), 2u);
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  CallTarget* generic = runtime.CreateCallTarget(Root(program(), 2));
  for (CallTarget* t : {target, generic}) {
    EXPECT_EQ(t->Call({Value::Long(1)}).AsDouble(), 2.5);
    EXPECT_EQ(t->Call({Value::Long(-3)}).AsDouble(), -5.5);
  }
}

TEST(BytecodeSwitchTest, AReplacedInlinedOperationIsRequickened) {
  // SelfReplacingOperation (inlined class 1) replaces itself by a
  // ConstantOperation (not inlined) while it runs: from then on the
  // instruction has the generic handler, which calls the replacement.
  test_language::TestRuntime runtime;
  BytecodeBuilder b;
  b.EmitOperation(std::make_unique<SelfReplacingOperation>(), 0);
  b.EmitReturn();
  auto program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  auto root = Root<SwitchRoot>(std::move(*program), 0);
  SwitchRoot* raw = root.get();
  EXPECT_EQ(
      Quickened(*raw),
      (std::vector<std::pair<int, int32_t>>{{0, QuickenedOpcode(OperationForm::kOperation, 1)}}));
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  EXPECT_EQ(target->Call({}).AsLong(), 1);
  EXPECT_TRUE(Quickened(*raw).empty());
  EXPECT_EQ(target->Call({}).AsLong(), 2);
  EXPECT_EQ(target->Call({}).AsLong(), 2);
}

// The language's error for a read before the first assignment.
class UninitializedReadOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(UninitializedReadOperation)
  Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    EXPECT_TRUE(operands.empty());
    ++runs;
    return Value::Long(-1);
  }
  int runs = 0;
};

// if (argument 0) l0 = 7; return l0 (checked): the fallback runs only for
// an unassigned local; stores widen the slot's kind in the descriptor.
TEST(BytecodeTest, CheckedLoadRunsItsOperationOnlyForAnUnassignedLocal) {
  test_language::TestRuntime runtime;
  BytecodeBuilder b;
  auto skip = b.NewLabel();
  b.EmitArgument(0, Value::Boolean(false));
  b.EmitBranchFalse(skip);
  b.EmitArgument(1, Value::Long(0));
  b.EmitStoreLocal(0);
  b.Bind(skip);
  auto fallback = std::make_unique<UninitializedReadOperation>();
  UninitializedReadOperation* raw_fallback = fallback.get();
  b.EmitLoadLocalChecked(0, std::move(fallback));
  b.EmitReturn();
  auto program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  auto root = Root(std::move(*program), 1);
  const FrameDescriptor& descriptor = root->frame_descriptor();
  const std::string text = root->Disassemble();
  EXPECT_NE(text.find("load.local.checked 0 0   ; UninitializedReadOperation"), std::string::npos)
      << text;
  CallTarget* target = runtime.CreateCallTarget(std::move(root));
  EXPECT_EQ(target->Call({Value::Boolean(true), Value::Long(7)}).AsLong(), 7);
  EXPECT_EQ(raw_fallback->runs, 0);
  EXPECT_EQ(descriptor.kind(0), FrameSlotKind::kLong);
  EXPECT_EQ(target->Call({Value::Boolean(false)}).AsLong(), -1);
  EXPECT_EQ(raw_fallback->runs, 1);
  EXPECT_EQ(target->Call({Value::Boolean(true), Value::Boolean(true)}).AsBoolean(), true);
  EXPECT_EQ(descriptor.kind(0), FrameSlotKind::kObject);
  EXPECT_EQ(raw_fallback->runs, 1);
}

// ------------------------------------ calls the switch runs in its own loop

// A call as an operation: its operands are the arguments of a direct call
// to `callee` (or, `indirect`, of a call of its target without the call
// node), and it tells the switch so (CallFor).
class CallOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(CallOperation)
  CallOperation() = default;
  explicit CallOperation(CallTarget* callee, bool indirect = false)
      : call_(DirectCallNode::Create(callee)), indirect_(indirect) {}
  MOREL_CHILDREN(call_)
  // For a recursive call: the callee exists after its root.
  void SetCallee(CallTarget* callee) {
    call_ = DirectCallNode::Create(callee);
    AdoptChildren();
  }
  Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    return indirect_ ? call_->call_target()->Call(operands) : call_->Call(operands);
  }
  OperationCall CallFor(absl::Span<const Value> operands) {
    if (indirect_) return {.target = call_->call_target(), .arguments = operands};
    return {.call = call_.get(), .arguments = operands};
  }
  DirectCallNode* call() const { return call_.get(); }

 private:
  Child<DirectCallNode> call_;
  bool indirect_ = false;
};

using CallingInlined = InlinedOperations<AddOperation, CallOperation>;
static_assert(switch_internal::CallsInLoop<CallingInlined, 1>() &&
              !switch_internal::CallsInLoop<CallingInlined, 0>());
class CallingRoot final : public BytecodeRootNodeWith<CallingInlined> {
 public:
  MOREL_NODE_KIND(CallingRoot)
  using BytecodeRootNodeWith::BytecodeRootNodeWith;
};

// Where an operation ran, seen while it ran: whether its frame was the
// thread's current one and lay on the thread's interpreter stack, its root
// and arguments, its caller's root, and the frames of the walk from it
// (how many, how many on the interpreter stack).
struct Sighting {
  bool current;
  bool on_interpreter_stack;
  const RootNode* root;
  size_t arguments;
  const RootNode* caller_root;
  bool caller_on_interpreter_stack;
  int frames;
  int frames_on_interpreter_stack;
};
class ProbeOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(ProbeOperation)
  explicit ProbeOperation(std::vector<Sighting>* sightings) : sightings_(sightings) {}
  Value ExecuteOperation(Frame& frame, absl::Span<const Value>) override {
    const InterpreterStack& stack = InterpreterStack::ForThisThread();
    Sighting seen{Frame::Current() == &frame,
                  stack.Contains(&frame),
                  frame.root(),
                  frame.arguments().size(),
                  frame.caller() != nullptr ? frame.caller()->root() : nullptr,
                  frame.caller() != nullptr && stack.Contains(frame.caller()),
                  0,
                  0};
    for (const Frame* f = &frame; f != nullptr; f = f->caller()) {
      ++seen.frames;
      seen.frames_on_interpreter_stack += stack.Contains(f) ? 1 : 0;
    }
    sightings_->push_back(seen);
    return Value::Long(0);
  }

 private:
  std::vector<Sighting>* sightings_;
};

class ThrowingOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(ThrowingOperation)
  Value ExecuteOperation(Frame&, absl::Span<const Value>) override {
    throw GuestError("thrown in the callee");
  }
};

// add(a, b) = a + b, probing its frame first.
BytecodeProgram ProbingAdd(std::vector<Sighting>* sightings) {
  BytecodeBuilder b;
  b.EmitOperation(std::make_unique<ProbeOperation>(sightings), 0);
  b.EmitPop();
  b.EmitArgument(0, Value::Long(0));
  b.EmitArgument(1, Value::Long(0));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitReturn();
  return Built(std::move(b));
}

// f(x): l0 = add(x, 10); return l0 + add(l0, 1), both calls to `callee`
// (the first stores its result: op.store; the second pushes it), the first
// one `indirect` or not.
template <typename R>
std::unique_ptr<R> CallingTwice(CallTarget* callee, DirectCallNode** first_call = nullptr,
                                bool indirect = false) {
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(0));
  b.EmitConstant(Value::Long(10));
  auto first = std::make_unique<CallOperation>(callee, indirect);
  if (first_call != nullptr) *first_call = first->call();
  b.EmitOperation(std::move(first), 2);
  b.EmitStoreLocal(0);
  b.EmitLoadLocal(0);
  b.EmitLoadLocal(0);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<CallOperation>(callee), 2);
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitReturn();
  return Root<R>(Built(std::move(b)), 1);
}

TEST(BytecodeSwitchTest, ACallToARootOfTheSameSwitchRunsInItsLoop) {
  test_language::TestRuntime runtime;
  std::vector<Sighting> sightings;
  CallTarget* add = runtime.CreateCallTarget(Root<CallingRoot>(ProbingAdd(&sightings), 0));
  DirectCallNode* first_call = nullptr;
  CallTarget* f = runtime.CreateCallTarget(CallingTwice<CallingRoot>(add, &first_call));
  // l0 = 5 + 10 = 15; 15 + (15 + 1) = 31.
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 31);
  ASSERT_EQ(sightings.size(), 2u);
  for (const Sighting& seen : sightings) {
    // The callee's frame is on the interpreter stack, current while it
    // runs, and linked to the caller's (on the native stack: Call).
    EXPECT_TRUE(seen.on_interpreter_stack);
    EXPECT_TRUE(seen.current);
    EXPECT_EQ(seen.caller_root, f->root_node());
    EXPECT_FALSE(seen.caller_on_interpreter_stack);
    EXPECT_EQ(seen.root, add->root_node());
    EXPECT_EQ(seen.arguments, 2u);
    EXPECT_EQ(seen.frames, 2);
  }
  // Counted as calls through CallTarget::Call are; nothing left behind.
  EXPECT_EQ(add->call_count(), 2);
  EXPECT_EQ(first_call->call_count(), 1);
  EXPECT_EQ(Frame::Current(), nullptr);
  EXPECT_EQ(InterpreterStack::ForThisThread().used(), 0u);
}

TEST(BytecodeSwitchTest, AReturnMakesTheCallersFrameCurrentAgain) {
  test_language::TestRuntime runtime;
  std::vector<Sighting> in_callee, in_caller;
  CallTarget* add = runtime.CreateCallTarget(Root<CallingRoot>(ProbingAdd(&in_callee), 0));
  // f(x): add(x, 10), then a probe in f itself.
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(0));
  b.EmitConstant(Value::Long(10));
  b.EmitOperation(std::make_unique<CallOperation>(add), 2);
  b.EmitOperation(std::make_unique<ProbeOperation>(&in_caller), 0);
  b.EmitPop();
  b.EmitReturn();
  CallTarget* f = runtime.CreateCallTarget(Root<CallingRoot>(Built(std::move(b)), 0));
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 15);
  ASSERT_EQ(in_callee.size(), 1u);
  EXPECT_TRUE(in_callee[0].on_interpreter_stack);
  ASSERT_EQ(in_caller.size(), 1u);
  EXPECT_TRUE(in_caller[0].current);
  EXPECT_FALSE(in_caller[0].on_interpreter_stack);
  EXPECT_EQ(in_caller[0].root, f->root_node());
  EXPECT_EQ(in_caller[0].frames, 1);
}

TEST(BytecodeSwitchTest, AnIndirectCallRunsInTheLoopToo) {
  test_language::TestRuntime runtime;
  std::vector<Sighting> sightings;
  CallTarget* add = runtime.CreateCallTarget(Root<CallingRoot>(ProbingAdd(&sightings), 0));
  DirectCallNode* first_call = nullptr;
  CallTarget* f =
      runtime.CreateCallTarget(CallingTwice<CallingRoot>(add, &first_call, /*indirect=*/true));
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 31);
  ASSERT_EQ(sightings.size(), 2u);
  EXPECT_TRUE(sightings[0].on_interpreter_stack);
  EXPECT_TRUE(sightings[1].on_interpreter_stack);
  // The target counts both calls; only the direct one went through a node.
  EXPECT_EQ(add->call_count(), 2);
  EXPECT_EQ(first_call->call_count(), 0);
}

TEST(BytecodeSwitchTest, ACallToARootOfAnotherKindIsANativeCall) {
  test_language::TestRuntime runtime;
  std::vector<Sighting> sightings;
  // The callee runs in the generic switch (another interpreter loop).
  CallTarget* add = runtime.CreateCallTarget(Root(ProbingAdd(&sightings), 0));
  CallTarget* f = runtime.CreateCallTarget(CallingTwice<CallingRoot>(add));
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 31);
  ASSERT_EQ(sightings.size(), 2u);
  for (const Sighting& seen : sightings) {
    EXPECT_FALSE(seen.on_interpreter_stack);
    EXPECT_TRUE(seen.current);
  }
  EXPECT_EQ(add->call_count(), 2);
}

TEST(BytecodeSwitchTest, ACalleeWithCodeOrAtItsThresholdIsANativeCall) {
  test_language::TestRuntime runtime;
  std::vector<Sighting> sightings;
  CallTarget* add = runtime.CreateCallTarget(Root<CallingRoot>(ProbingAdd(&sightings), 0));
  CallTarget* f = runtime.CreateCallTarget(CallingTwice<CallingRoot>(add));
  // The second call reaches the threshold: Call() requests the compilation.
  add->set_compilation_threshold(2);
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 31);
  ASSERT_EQ(sightings.size(), 2u);
  EXPECT_TRUE(sightings[0].on_interpreter_stack);
  EXPECT_FALSE(sightings[1].on_interpreter_stack);
  EXPECT_EQ(add->call_count(), 2);
}

// Requests a safepoint of its root's runtime.
class SafepointRequestingOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(SafepointRequestingOperation)
  Value ExecuteOperation(Frame& frame, absl::Span<const Value>) override {
    frame.root()->runtime()->RequestSafepoint();
    return Value::Long(0);
  }
};

TEST(BytecodeSwitchTest, ACallWithASafepointPendingIsANativeCall) {
  test_language::TestRuntime runtime;
  std::vector<Sighting> sightings;
  CallTarget* add = runtime.CreateCallTarget(Root<CallingRoot>(ProbingAdd(&sightings), 0));
  // f(x): request a safepoint; return add(x, 1) + add(x, 2).
  BytecodeBuilder b;
  b.EmitOperation(std::make_unique<SafepointRequestingOperation>(), 0);
  b.EmitPop();
  for (int k : {1, 2}) {
    b.EmitArgument(0, Value::Long(0));
    b.EmitConstant(Value::Long(k));
    b.EmitOperation(std::make_unique<CallOperation>(add), 2);
  }
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitReturn();
  CallTarget* f = runtime.CreateCallTarget(Root<CallingRoot>(Built(std::move(b)), 0));
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 13);
  // The first call polls the safepoint through CallTarget::Call, which
  // clears it; the second runs in the loop.
  ASSERT_EQ(sightings.size(), 2u);
  EXPECT_FALSE(sightings[0].on_interpreter_stack);
  EXPECT_TRUE(sightings[1].on_interpreter_stack);
  EXPECT_FALSE(runtime.SafepointRequested());
  EXPECT_EQ(add->call_count(), 2);
}

// add(a, b) with a probe, as a root that splitting may copy.
class SplittableAddRoot final : public BytecodeRootNodeWith<CallingInlined> {
 public:
  MOREL_NODE_KIND(SplittableAddRoot)
  explicit SplittableAddRoot(std::vector<Sighting>* sightings)
      : BytecodeRootNodeWith(SourceSection(), "add", std::make_unique<FrameDescriptor>(),
                             ProbingAdd(sightings)),
        sightings_(sightings) {}
  bool IsCloningAllowed() const override { return true; }
  std::unique_ptr<RootNode> CloneUninitialized() const override {
    return std::make_unique<SplittableAddRoot>(sightings_);
  }

 private:
  std::vector<Sighting>* sightings_;
};

TEST(BytecodeSwitchTest, ACallTheLoopRunsDecidesItsSplitAndRunsTheSplitCopy) {
  test_language::TestRuntime runtime;
  runtime.set_split_on_call(true);
  std::vector<Sighting> sightings;
  CallTarget* add = runtime.CreateCallTarget(std::make_unique<SplittableAddRoot>(&sightings));
  add->set_needs_split(true);
  CallTarget* f = runtime.CreateCallTarget(CallingTwice<CallingRoot>(add));
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 31);
  // Each call node asked once and runs its own copy, in the loop.
  EXPECT_EQ(runtime.direct_call_consultations().size(), 2u);
  ASSERT_EQ(sightings.size(), 2u);
  for (const Sighting& seen : sightings) {
    EXPECT_TRUE(seen.on_interpreter_stack);
    EXPECT_NE(seen.root, add->root_node());
  }
  EXPECT_NE(sightings[0].root, sightings[1].root);
  EXPECT_EQ(add->call_count(), 0);
}

TEST(BytecodeSwitchTest, AnErrorInACallTheLoopRunsLeavesNothingBehind) {
  test_language::TestRuntime runtime;
  // thrower(): throws.
  BytecodeBuilder t;
  t.EmitOperation(std::make_unique<ThrowingOperation>(), 0);
  t.EmitReturn();
  CallTarget* thrower = runtime.CreateCallTarget(Root<CallingRoot>(Built(std::move(t)), 0));
  // middle(): loops twice, then calls thrower.
  // f(): loops three times, then calls middle.
  auto looping_caller = [&](CallTarget* callee, int iterations) {
    BytecodeBuilder b;
    EmitCountUp(b, [&] { b.EmitConstant(Value::Long(iterations)); });
    b.EmitOperation(std::make_unique<CallOperation>(callee), 0);
    b.EmitReturn();
    return runtime.CreateCallTarget(Root<CallingRoot>(Built(std::move(b)), 1));
  };
  CallTarget* middle = looping_caller(thrower, 2);
  CallTarget* f = looping_caller(middle, 3);
  EXPECT_THROW(f->Call({}), GuestError);
  // The frames are gone, and each activation's back edges were reported.
  EXPECT_EQ(Frame::Current(), nullptr);
  EXPECT_EQ(InterpreterStack::ForThisThread().used(), 0u);
  std::map<CallTarget*, int> iterations;
  for (const auto& report : runtime.loop_reports()) iterations[report.target] += report.iterations;
  EXPECT_EQ(iterations[f], 3);
  EXPECT_EQ(iterations[middle], 2);
  // The loop runs calls again afterwards.
  std::vector<Sighting> sightings;
  CallTarget* add = runtime.CreateCallTarget(Root<CallingRoot>(ProbingAdd(&sightings), 0));
  EXPECT_EQ(
      runtime.CreateCallTarget(CallingTwice<CallingRoot>(add))->Call({Value::Long(1)}).AsLong(),
      23);
  ASSERT_EQ(sightings.size(), 2u);
  EXPECT_TRUE(sightings[1].on_interpreter_stack);
}

// down(n) = 0 < n ? down(n - 1) + 1 : probe, 0.
CallTarget* Countdown(test_language::TestRuntime& runtime, std::vector<Sighting>* sightings) {
  BytecodeBuilder b;
  auto base = b.NewLabel();
  b.EmitConstant(Value::Long(0));
  b.EmitArgument(0, Value::Long(0));
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.EmitBranchFalse(base);
  b.EmitArgument(0, Value::Long(0));
  b.EmitConstant(Value::Long(-1));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  auto call = std::make_unique<CallOperation>();
  CallOperation* recursive = call.get();
  b.EmitOperation(std::move(call), 1);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitReturn();
  b.Bind(base);
  b.EmitOperation(std::make_unique<ProbeOperation>(sightings), 0);
  b.EmitReturn();
  CallTarget* down = runtime.CreateCallTarget(Root<CallingRoot>(Built(std::move(b)), 0));
  recursive->SetCallee(down);
  return down;
}

TEST(BytecodeSwitchTest, RecursionDeeperThanTheInterpreterStackGoesOnNatively) {
  test_language::TestRuntime runtime;
  std::vector<Sighting> sightings;
  CallTarget* down = Countdown(runtime, &sightings);
  // Shallow: the innermost activation is on the interpreter stack.
  EXPECT_EQ(down->Call({Value::Long(10)}).AsLong(), 10);
  ASSERT_EQ(sightings.size(), 1u);
  EXPECT_TRUE(sightings[0].on_interpreter_stack);
  // Deeper than the stack holds: the calls that do not fit are native
  // calls (and so is each one after them), with the same result.
  const size_t per_call =
      sizeof(switch_internal::Activation) + sizeof(Value) * down->root_node()->frame_storage_size();
  const int deep = static_cast<int>(InterpreterStack::kBytes / per_call) + 20;
  EXPECT_EQ(down->Call({Value::Long(deep)}).AsLong(), deep);
  ASSERT_EQ(sightings.size(), 2u);
  EXPECT_FALSE(sightings[1].on_interpreter_stack);
  EXPECT_EQ(sightings[1].frames, deep + 1);
  EXPECT_GT(sightings[1].frames_on_interpreter_stack, deep - 40);
  EXPECT_EQ(InterpreterStack::ForThisThread().used(), 0u);
  EXPECT_EQ(Frame::Current(), nullptr);
}

// A call of a host function as an operation: CallFor names the function
// (HostSum, with a call counter as its data), so the switch calls it at
// once; ExecuteOperation is for other switches only.
Value HostSum(const void* data, absl::Span<const Value> arguments) {
  ++*static_cast<int*>(const_cast<void*>(data));
  int64_t sum = 0;
  for (const Value& v : arguments) sum += v.AsLong();
  return Value::Long(sum);
}
class HostCallOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(HostCallOperation)
  explicit HostCallOperation(int* calls) : calls_(calls) {}
  Value ExecuteOperation(Frame&, absl::Span<const Value>) override {
    ADD_FAILURE() << "the switch runs the call CallFor names";
    return Value::Long(-1);
  }
  OperationCall CallFor(absl::Span<const Value> operands) {
    return {.function = &HostSum, .data = calls_, .arguments = operands};
  }

 private:
  int* calls_;
};
using HostCallingInlined = InlinedOperations<AddOperation, HostCallOperation>;
class HostCallingRoot final : public BytecodeRootNodeWith<HostCallingInlined> {
 public:
  MOREL_NODE_KIND(HostCallingRoot)
  using BytecodeRootNodeWith::BytecodeRootNodeWith;
};

TEST(BytecodeSwitchTest, AHostFunctionCallRunsAtOnceWithItsArgumentsAndNoFrame) {
  test_language::TestRuntime runtime;
  int calls = 0;
  // f(x): l0 = sum(x, 10); return sum(l0, 1, 2) + 1 (the first call stores
  // its result, the second pushes it).
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(0));
  b.EmitConstant(Value::Long(10));
  b.EmitOperation(std::make_unique<HostCallOperation>(&calls), 2);
  b.EmitStoreLocal(0);
  b.EmitLoadLocal(0);
  b.EmitConstant(Value::Long(1));
  b.EmitConstant(Value::Long(2));
  b.EmitOperation(std::make_unique<HostCallOperation>(&calls), 3);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitReturn();
  CallTarget* f = runtime.CreateCallTarget(Root<HostCallingRoot>(Built(std::move(b)), 1));
  // l0 = 15; 15 + 1 + 2 + 1 = 19.
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 19);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(InterpreterStack::ForThisThread().used(), 0u);
  EXPECT_EQ(Frame::Current(), nullptr);
}

TEST(BytecodeSwitchTest, UnderAFrameLimitCallsAreNativeAndCountTheirFrames) {
  test_language::TestRuntime runtime;
  std::vector<Sighting> sightings;
  CallTarget* add = runtime.CreateCallTarget(Root<CallingRoot>(ProbingAdd(&sightings), 0));
  CallTarget* f = runtime.CreateCallTarget(CallingTwice<CallingRoot>(add));
  // f and one callee at a time fit.
  runtime.set_max_stack_frames(2);
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 31);
  ASSERT_EQ(sightings.size(), 2u);
  for (const Sighting& seen : sightings) {
    EXPECT_FALSE(seen.on_interpreter_stack);
    EXPECT_TRUE(seen.current);
    EXPECT_EQ(seen.frames, 2);
  }
  // The callee's frame is one too many: the limit's error, before it runs.
  runtime.set_max_stack_frames(1);
  EXPECT_THROW(f->Call({Value::Long(5)}), ResourceLimitError);
  EXPECT_EQ(sightings.size(), 2u);
  EXPECT_EQ(CallTarget::stack_frames_on_this_thread(), 0);
  EXPECT_EQ(Frame::Current(), nullptr);
  EXPECT_EQ(InterpreterStack::ForThisThread().used(), 0u);
}

TEST(BytecodeSwitchTest, OsrInACalleeTheLoopRunsReturnsToTheCaller) {
  OsrPollingRuntime runtime;
  runtime.interval = 1024;
  runtime.accept_at = 2048;
  runtime.osr_result = 99;
  // count(n): l0 = 0; while (l0 < n) l0 = l0 + 1; return l0.
  BytecodeBuilder c;
  const int header = EmitCountUp(c, [&] { c.EmitArgument(0, Value::Long(0)); });
  c.EmitLoadLocal(0);
  c.EmitReturn();
  CallTarget* count = runtime.CreateCallTarget(Root<CallingRoot>(Built(std::move(c)), 1));
  // f(n): count(n) + 1, then a probe in f.
  std::vector<Sighting> in_caller;
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(0));
  b.EmitOperation(std::make_unique<CallOperation>(count), 1);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitOperation(std::make_unique<ProbeOperation>(&in_caller), 0);
  b.EmitPop();
  b.EmitReturn();
  CallTarget* f = runtime.CreateCallTarget(Root<CallingRoot>(Built(std::move(b)), 0));
  // Below the first poll: the callee's loop runs to its end.
  EXPECT_EQ(f->Call({Value::Long(1000)}).AsLong(), 1001);
  EXPECT_TRUE(runtime.tries.empty());
  // Polls at the callee's 1024th and 2048th back edge (the method's count,
  // 1000 of them in the first call); the second runs "OSR code", whose
  // result is the callee's.
  EXPECT_EQ(f->Call({Value::Long(5000)}).AsLong(), 100);
  ASSERT_EQ(runtime.tries.size(), 2u);
  for (const OsrPollingRuntime::Try& t : runtime.tries) {
    EXPECT_EQ(t.target_bci, header);
    EXPECT_TRUE(t.on_interpreter_stack);
  }
  EXPECT_EQ(runtime.tries[0].i, 24);
  EXPECT_EQ(runtime.tries[1].i, 1048);
  // The caller goes on in its own frame.
  ASSERT_EQ(in_caller.size(), 2u);
  EXPECT_TRUE(in_caller[1].current);
  EXPECT_FALSE(in_caller[1].on_interpreter_stack);
  EXPECT_EQ(in_caller[1].root, f->root_node());
  EXPECT_EQ(in_caller[1].frames, 1);
  EXPECT_EQ(InterpreterStack::ForThisThread().used(), 0u);
  EXPECT_EQ(Frame::Current(), nullptr);
}

TEST(BytecodeTest, BuilderErrorsNameTheBci) {
  {
    BytecodeBuilder b;
    auto missing = b.NewLabel();
    b.EmitBranch(missing);
    EXPECT_EQ(std::move(b).Build().status().message(), "label 0 used but never bound");
  }
  {
    BytecodeBuilder b;
    b.EmitConstant(Value::Long(1));
    EXPECT_EQ(std::move(b).Build().status().message(),
              "bci 0: the code falls off its end (no return)");
  }
  {
    BytecodeBuilder b;
    b.EmitPop();
    b.EmitReturn();
    EXPECT_EQ(std::move(b).Build().status().message(), "bci 0: pop pops 1 values of a stack of 0");
  }
  {
    // Two paths reach the join with different heights.
    BytecodeBuilder b;
    auto join = b.NewLabel();
    b.EmitArgument(0, Value::Boolean(false));
    b.EmitBranchFalse(join);
    b.EmitConstant(Value::Long(1));
    b.Bind(join);
    b.EmitConstant(Value::Long(2));
    b.EmitReturn();
    auto built = std::move(b).Build();
    ASSERT_FALSE(built.ok());
    EXPECT_NE(built.status().message().find("reached with stack height"), std::string::npos)
        << built.status();
  }
}

TEST(BytecodeTest, Disassembles) {
  auto root = Root(SumProgram(), 2);
  const std::string text = root->Disassemble();
  // i < n, and the branch.false after it fused (to bci 31, the exit).
  EXPECT_NE(text.find("op.branch.false 0 2 31   ; LessOperation"), std::string::npos) << text;
  EXPECT_NE(text.find("op.local.local.store 1 0 1 0 0   ; AddOperation"), std::string::npos)
      << text;
  EXPECT_NE(text.find("return"), std::string::npos) << text;
  EXPECT_EQ(root->max_stack(), 2);
  EXPECT_EQ(root->frame_storage_size(), 2 + 1 + 2);
}

}  // namespace
}  // namespace morel::bytecode
