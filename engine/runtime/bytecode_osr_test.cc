// Bytecode OSR in the engine (engine/runtime/osr.h) on a bytecode function
// of the test's own: its loop header has a value on the operand stack and
// the loop reads an argument, which SL's bytecode never does (the OSR code
// loads the header's stack from the frame and reads the activation's
// arguments through its entry record). The operations count their
// interpreter executions, so the tests see the compiled code run the loop.

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "engine/config/engine_config.pb.h"
#include "engine/pe/compiled_operation.h"
#include "engine/pe/pe_context.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "nodes/bytecode/bytecode_builder.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/bytecode/bytecode_root_node.h"
#include "nodes/guest_error.h"
#include "nodes/resume.h"
#include "nodes/specialization.h"

namespace morel::runtime {
namespace {

// Operations executed by the interpreter (not by compiled code).
int interpreted_operations = 0;

struct LessLong {
  static constexpr absl::string_view kName = "LessLong";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(c.IsLong(l), c.IsLong(r));
  }
  template <typename C, typename N>
  static typename C::V Body(C& c, N&, typename C::V l, typename C::V r) {
    return c.BoxBoolean(c.LongLess(c.AsLong(l), c.AsLong(r)));
  }
};

struct AddLong {
  static constexpr absl::string_view kName = "AddLong";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(c.IsLong(l), c.IsLong(r));
  }
  template <typename C, typename N>
  static typename C::V Body(C& c, N&, typename C::V l, typename C::V r) {
    auto sum = c.AddOverflow(c.AsLong(l), c.AsLong(r));
    c.RewriteOn(sum.overflow);
    return c.BoxLong(sum.value);
  }
};

// A binary operation on longs, run by the interpreter and compiled with
// the same specialization; a deoptimization inside it resumes it with its
// two operands.
template <typename Specialization>
class LongOperation final : public Node,
                            public bytecode::BytecodeOperation,
                            public pe::CompiledOperation {
 public:
  MOREL_NODE_KIND(LongOperation)
  Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    ++interpreted_operations;
    return specializer_.Execute(*this, operands[0], operands[1]);
  }
  pe::PeValue PartialEvaluateOperation(pe::PartialEvaluator& pe,
                                       absl::Span<const pe::PeValue> operands) override {
    return pe::WithOperands(pe, this, operands, [&] {
      return specializer_.PartialEvaluate(pe.context(), *this, operands[0], operands[1]);
    });
  }
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    MOREL_CHECK(next_child == 2 && done.size() == 2);
    return Outcome::OfValue(ExecuteOperation(frame, {done[0].value, done[1].value}));
  }
  static Value Fallback(LongOperation&, Value, Value) { throw GuestError("not longs"); }

 private:
  Specializer<LongOperation, Specialization> specializer_;
};

// f(n): 7; i = 0; while (i < n) { i = i + 1 }; return 7 + i -- the 7 stays
// on the operand stack across the loop, and the loop reads argument 0.
std::unique_ptr<bytecode::BytecodeRootNode> Function(int* header_bci) {
  bytecode::BytecodeBuilder b;
  b.EmitConstant(Value::Long(7));
  b.EmitConstant(Value::Long(0));
  b.EmitStoreLocal(0);  // i
  auto header = b.NewLabel(), exit = b.NewLabel();
  b.Bind(header);
  *header_bci = b.bci();
  b.EmitLoadLocal(0);
  b.EmitArgument(0, Value::Long(0));
  b.EmitOperation(std::make_unique<LongOperation<LessLong>>(), 2);
  b.EmitBranchFalse(exit);
  b.EmitLoadLocal(0);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<LongOperation<AddLong>>(), 2);
  b.EmitStoreLocal(0);
  b.EmitBranch(header);
  b.Bind(exit);
  b.EmitLoadLocal(0);
  b.EmitOperation(std::make_unique<LongOperation<AddLong>>(), 2);
  b.EmitReturn();
  auto program = std::move(b).Build();
  EXPECT_TRUE(program.ok()) << program.status();
  auto descriptor = std::make_unique<FrameDescriptor>();
  descriptor->AddSlot("i");
  return std::make_unique<bytecode::BytecodeRootNode>(SourceSection(), "f", std::move(descriptor),
                                                      std::move(*program));
}

// false in the interpreter, true in compiled code (Truffle's
// CompilerDirectives.inCompiledCode()).
class InCompiledCode final : public Node,
                             public bytecode::BytecodeOperation,
                             public pe::CompiledOperation {
 public:
  MOREL_NODE_KIND(InCompiledCode)
  Value ExecuteOperation(Frame&, absl::Span<const Value>) override {
    ++interpreted_operations;
    return Value::Boolean(false);
  }
  pe::PeValue PartialEvaluateOperation(pe::PartialEvaluator& pe,
                                       absl::Span<const pe::PeValue>) override {
    return pe.Constant(Value::Boolean(true));
  }
};

// g(): while (!inCompiledCode()) {}; return 42 -- a loop the interpreter
// never leaves (Truffle's BytecodeDSLOSRTest: an infinite interpreter loop
// still returns through OSR).
std::unique_ptr<bytecode::BytecodeRootNode> InfiniteLoop() {
  bytecode::BytecodeBuilder b;
  auto header = b.NewLabel();
  b.Bind(header);
  b.EmitOperation(std::make_unique<InCompiledCode>(), 0);
  b.EmitBranchFalse(header);
  b.EmitConstant(Value::Long(42));
  b.EmitReturn();
  auto program = std::move(b).Build();
  EXPECT_TRUE(program.ok()) << program.status();
  return std::make_unique<bytecode::BytecodeRootNode>(
      SourceSection(), "g", std::make_unique<FrameDescriptor>(), std::move(*program));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int CountLines(const std::string& text, absl::string_view prefix, absl::string_view needle) {
  int count = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    count += absl::StartsWith(line, prefix) && absl::StrContains(line, needle);
  }
  return count;
}

class BytecodeOsrTest : public ::testing::TestWithParam<config::EngineConfig::Backend> {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    log_ = absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/bytecode_osr_",
                        config::EngineConfig::Backend_Name(GetParam()), ".log");
    std::remove(log_.c_str());
    config::EngineConfig config;
    config.set_backend(GetParam());
    config.set_always_osr(true);
    config.set_background_compilation(false);
    config.set_trace_compilation(true);
    // Only OSR: f itself is not compiled by its calls and loops.
    config.set_first_tier_compilation_threshold(100000000);
    config.set_last_tier_compilation_threshold(100000000);
    config.set_log(log_);
    absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(config);
    ASSERT_TRUE(engine.ok()) << engine.status();
    engine_ = *std::move(engine);
    target_ = engine_->CreateCallTarget(Function(&header_));
    interpreted_operations = 0;
  }

  std::string log_;
  std::unique_ptr<Engine> engine_;
  CallTarget* target_ = nullptr;
  int header_ = -1;
};

TEST_P(BytecodeOsrTest, RunsTheRestOfTheFunctionFromTheLoopHeader) {
  const std::string osr_target = absl::StrCat("f<OSR@", header_, ">");
  // The first back edge enters OSR code (AlwaysOSR). The interpreter ran
  // the loop's two operations once; the code runs the rest of the loop.
  // Its final add never ran in the interpreter, so the code deoptimizes
  // there and the interpreter finishes the function on the frame: 3.
  EXPECT_EQ(target_->Call({Value::Long(100000)}), Value::Long(100007));
  EXPECT_EQ(interpreted_operations, 3);
  std::string log = ReadFile(log_);
  EXPECT_EQ(CountLines(log, "[engine] opt done", osr_target), 1) << log;
  EXPECT_EQ(CountLines(log, "[engine] opt deopt", osr_target), 1) << log;
  // The next call compiles the entry again (the same target) and runs the
  // whole loop and the add in compiled code.
  interpreted_operations = 0;
  EXPECT_EQ(target_->Call({Value::Long(50000)}), Value::Long(50007));
  EXPECT_EQ(interpreted_operations, 2);
  log = ReadFile(log_);
  EXPECT_EQ(CountLines(log, "[engine] opt done", osr_target), 2) << log;
  EXPECT_EQ(CountLines(log, "[engine] opt deopt", osr_target), 1) << log;
  EXPECT_EQ(CountLines(log, "[engine] opt done", "OSR"), 2) << log;
  // Fewer arguments: the argument's default (0) in compiled code too.
  EXPECT_EQ(target_->Call({}), Value::Long(7));
}

TEST_P(BytecodeOsrTest, AnInfiniteInterpreterLoopReturnsThroughOsr) {
  // At the default threshold too: 100352 back edges, then the code.
  for (bool always : {true, false}) {
    config::EngineConfig config;
    config.set_backend(GetParam());
    config.set_always_osr(always);
    config.set_background_compilation(false);
    config.set_first_tier_compilation_threshold(100000000);
    config.set_last_tier_compilation_threshold(100000000);
    absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(config);
    ASSERT_TRUE(engine.ok()) << engine.status();
    CallTarget* g = (*engine)->CreateCallTarget(InfiniteLoop());
    interpreted_operations = 0;
    EXPECT_EQ(g->Call({}), Value::Long(42));
    EXPECT_EQ(interpreted_operations, always ? 1 : 100352) << "always_osr=" << always;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, BytecodeOsrTest,
                         ::testing::Values(config::EngineConfig::ir_interpreter,
                                           config::EngineConfig::host),
                         [](const ::testing::TestParamInfo<config::EngineConfig::Backend>& info) {
                           return config::EngineConfig::Backend_Name(info.param);
                         });

}  // namespace
}  // namespace morel::runtime
