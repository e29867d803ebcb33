#ifndef MOREL_NODES_BYTECODE_BYTECODE_ROOT_NODE_H_
#define MOREL_NODES_BYTECODE_BYTECODE_ROOT_NODE_H_

// BytecodeRootNode: a root whose body is bytecode (bytecode.h) built by a
// BytecodeBuilder, run by one generic interpreter loop, compiled by the
// partial evaluator's merge-explode over the same constant code (engine/pe),
// and resumed at a bci after deoptimization.
//
// Frame layout: the descriptor's slots are the language's locals; the
// operand stack lives in the frame storage after them
// (RootNode::frame_storage_size, from stack_base()), so the collector sees
// it, compiled code can hand it back on deoptimization, and stack walks
// (which show the descriptor's slots) do not.
//
// Back edges (a branch to an earlier bci) count loop iterations into the
// call target as a LoopNode does (its callAndLoopCount drives compilation),
// poll the runtime's safepoint, and count toward on-stack replacement: the
// root is a BytecodeOSRNode (nodes/bytecode_osr_node.h) whose OSR target
// for a back edge is the branch's target bci (its interpreter state the
// operand stack's height there), and whose OSR code runs from there to the
// end of the call target (ExecuteOSR; compiled: engine/pe/bytecode_explode.cc).
// The interpreter keeps its back edges in a local counter and hands them to
// the call target and the OSR counter in batches that end where an OSR poll
// may come due, so a back edge costs one increment and compare until then.
//
// The interpreter switch (Truffle's @BytecodeInterpreterSwitch; the loop
// itself is bytecode_switch.h): a language whose root derives from
// BytecodeRootNodeWith<InlinedOperations<Op...>> gets a dispatch loop
// compiled with its operations' bodies inlined, at most
// kMaxInlinedOperations classes. The root runs a quickened copy of its code
// in which each operation instruction whose node is one of those classes has
// a handler of its own (one indirect jump per instruction, no virtual call);
// every other operation is called through its vtable. The code the partial
// evaluator, OSR, deoptimization and the disassembler read is never
// quickened.

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <typeinfo>
#include <vector>

#include "absl/types/span.h"
#include "nodes/bytecode/bytecode.h"
#include "nodes/bytecode/bytecode_builder.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/bytecode_osr_node.h"
#include "nodes/frame.h"
#include "nodes/root_node.h"
#include "nodes/value.h"

namespace morel {
class NodeRuntime;
}  // namespace morel

namespace morel::bytecode {

// The most operation classes one interpreter switch inlines (its budget):
// each takes a handler per operation form (bytecode.h) in the loop.
inline constexpr int kMaxInlinedOperations = 16;

class BytecodeRootNode : public RootNode, public BytecodeOSRNode {
 public:
  MOREL_NODE_KIND(BytecodeRootNode)

  BytecodeRootNode(SourceSection source_section, std::string name,
                   std::unique_ptr<FrameDescriptor> frame_descriptor, BytecodeProgram program);

  // Runs the code from bci 0.
  Value Execute(Frame& frame) override;
  // Resumes an activation (nodes/resume.h) in one of two forms; the
  // locals are in the frame, the operand stack comes as `done` values:
  //  - at instruction `next_child`, whose stack (stack_height(next_child)
  //    values) is `done`;
  //  - after the operation at bci = next_child - 1 (the root waited for it
  //    as its "child" bci, which resumed and returned): `done` is the
  //    stack below the operation's operands, then its result.
  // Compiled code's frame states use both (engine/pe/bytecode_explode.cc).
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override;

  // BytecodeOSRNode: runs from `target_bci` (a back edge's target, where
  // the operand stack has its fixed height stack_height(target_bci), which
  // `interpreter_state` repeats) to the end of the call target on
  // `osr_frame`, whose storage holds the locals and that operand stack.
  Value ExecuteOSR(Frame& osr_frame, int target_bci, int64_t interpreter_state) override;

  // The operations' nodes, in index order (k of `op k n`).
  void ForEachChild(ChildVisitor visitor) override;
  // An operation replaced itself: `op k` runs the replacement from now on.
  void OnChildReplaced(Node& old_child, Node& new_child) override;

  absl::Span<const int32_t> code() const { return program_.code; }
  const Value& constant(int index) const { return program_.constants[index]; }
  BytecodeOperation* operation(int index) const { return operations_[index]; }
  Node* operation_node(int index) const { return operation_slots_[index]->get(); }
  int operation_count() const { return static_cast<int>(operations_.size()); }
  // The code the interpreter runs: code() with the operation instructions
  // of inlined operations quickened (see above; bytecode_switch.h).
  absl::Span<const int32_t> quickened_code() const { return quickened_code_; }
  // The operand stack's height before the instruction at `bci` (-1: not
  // an instruction, or unreachable).
  int stack_height(int bci) const { return program_.stack_height[bci]; }
  int max_stack() const { return program_.max_stack; }
  // Frame-storage index of the operand stack's first value: after the
  // descriptor's slots and the scratch slot. With frame_storage_bytes()
  // (an activation's frame storage, frame_storage_size() Values), fixed
  // when the root is built, whose descriptor is complete then
  // (FrameDescriptor::AddSlot): a call the switch runs reads both.
  int stack_base() const { return stack_base_; }
  size_t frame_storage_bytes() const { return frame_storage_bytes_; }
  // The source position of the instruction at `bci`, or null.
  const SourceSection* SourceAt(int bci) const;
  // The code, one instruction per line, operations by their node kind.
  std::string Disassemble() const;

 protected:
  // The interpreter: runs from `bci` with `height` values on the operand
  // stack. BytecodeRootNodeWith overrides it with its switch.
  virtual Value Dispatch(Frame& frame, int bci, int height);
  // The interpreter switch for operations `Inlined` (bytecode_switch.h).
  // Aligned to a cache line, so that where its handlers fall against the
  // processor's 32- and 64-byte boundaries does not move with unrelated
  // code: SL's switch had started at offsets 16, 32 and 48 of a line in
  // three builds of the same switch, and bytecode `loop` ran 1.00, 0.96
  // and 1.06x the time of the first (paired runs, an Intel Xeon). At
  // offset 0, against offset 48: loop 0.86, fields 0.98, richards 0.99,
  // sieve 1.00, fib 1.01, kernel 1.04.
  template <typename Inlined>
  [[gnu::aligned(64)]] Value DispatchWith(Frame& frame, int bci, int height);
  // The index of `operation`'s class among the switch's inlined operations,
  // or -1 (called through its vtable; also when the class has a fixed
  // operand count, InlinedOperations::kArity, and the instruction another).
  virtual int InlinedOperationIndex(const BytecodeOperation& operation, int operand_count) const {
    return -1;
  }
  // Rewrites the quickened code's operation instructions for their
  // operations' current nodes (InlinedOperationIndex).
  void Quicken();

 private:
  // Sets the quickened opcodes of the instructions running operation k
  // (every operation's when k < 0), in one pass over the code: its inlined
  // class's handlers if `quicken` and it has one, else the generic ones.
  void SetOperationOpcodes(int k, bool quicken);

  BytecodeProgram program_;
  // program_.code with quickened operation instructions (Quicken).
  std::vector<int32_t> quickened_code_;
  // The operations' nodes, owned as children (program_.operations moves
  // here), and their interfaces, which the interpreter calls.
  std::vector<std::unique_ptr<ChildSlot>> operation_slots_;
  std::vector<BytecodeOperation*> operations_;
  int stack_base_;
  size_t frame_storage_bytes_;
};

// An operation class's operand count when it declares one, else -1.
template <typename Op>
constexpr int FixedOperandCount() {
  if constexpr (requires { Op::kOperandCount; }) {
    return static_cast<int>(Op::kOperandCount);
  } else {
    return -1;
  }
}

// An entry of InlinedOperations: operator node class Op (OperatorNode) that
// the switch calls directly on its operands in place, out of line, instead
// of inlining it or calling it through its vtable with the operands copied
// onto the stack (SL's property reads and writes: their cache guards,
// inlined, made GCC allocate the whole loop's registers worse).
template <typename Op>
struct CalledOperation {};

namespace root_internal {
template <typename Entry>
struct EntryClass {
  using type = Entry;
  static constexpr bool kCalled = false;
};
template <typename Op>
struct EntryClass<CalledOperation<Op>> {
  using type = Op;
  static constexpr bool kCalled = true;
};
template <typename Entry>
using ClassOf = typename EntryClass<Entry>::type;
// The key of the roots whose Execute is the switch of `Inlined`
// (RootNode::interpreter_loop).
template <typename Inlined>
inline constexpr char kInterpreterLoop = 0;
}  // namespace root_internal

// The operation classes a root's interpreter switch inlines (or calls
// directly: CalledOperation<Op>), in the order that numbers them. Each is a
// node class implementing BytecodeOperation; an operation whose class is
// exactly one of them (typeid) has its ExecuteOperation called
// non-virtually (or its OperatorNode::RunOnOperandsAtCalled).
template <typename... Entries>
struct InlinedOperations {
  static constexpr int kCount = sizeof...(Entries);
  static_assert(kCount <= kMaxInlinedOperations,
                "an interpreter switch inlines at most kMaxInlinedOperations operation classes");
  // Entry I, its class, and whether the switch calls it instead of
  // inlining it.
  template <int I>
  using EntryAt = std::tuple_element_t<I, std::tuple<Entries...>>;
  template <int I>
  using At = root_internal::ClassOf<EntryAt<I>>;
  template <int I>
  static constexpr bool kCalled = root_internal::EntryClass<EntryAt<I>>::kCalled;
  // The index of `operation`'s class, or -1. Exactly that class: a
  // subclass may override ExecuteOperation.
  static int IndexOf(const BytecodeOperation& operation) {
    int index = -1;
    int i = 0;
    ((index = index < 0 && typeid(operation) == typeid(root_internal::ClassOf<Entries>) ? i : index,
      ++i),
     ...);
    return index;
  }
  // Each class's operand count when it is fixed (its kOperandCount: an
  // OperatorNode's), else -1; the switch then takes it as a constant, and
  // Quicken inlines only instructions that agree. (One more entry, so that
  // no classes is an array too.)
  static constexpr int kArity[] = {FixedOperandCount<root_internal::ClassOf<Entries>>()..., -1};
};

// A bytecode root whose interpreter switch inlines the operations `Inlined`
// (an InlinedOperations<...>). The language's root class derives from it;
// its Dispatch is instantiated where the language includes
// bytecode_switch.h (an explicit instantiation; the example there).
template <typename Inlined>
class BytecodeRootNodeWith : public BytecodeRootNode {
 public:
  BytecodeRootNodeWith(SourceSection source_section, std::string name,
                       std::unique_ptr<FrameDescriptor> frame_descriptor, BytecodeProgram program)
      : BytecodeRootNode(std::move(source_section), std::move(name), std::move(frame_descriptor),
                         std::move(program)) {
    Quicken();
    set_interpreter_loop(&root_internal::kInterpreterLoop<Inlined>);
  }
  // Runs the code from bci 0 in this switch: a call's entry, without the
  // virtual Dispatch in between. The switch runs a callee root of its own
  // in its loop, without calling Execute (RootNode::interpreter_loop): a
  // subclass that overrides Execute must set its own key, or null.
  Value Execute(Frame& frame) override;

 protected:
  Value Dispatch(Frame& frame, int bci, int height) override;
  int InlinedOperationIndex(const BytecodeOperation& operation, int operand_count) const override {
    const int index = Inlined::IndexOf(operation);
    if (index < 0) return -1;
    const int arity = Inlined::kArity[index];
    return arity < 0 || arity == operand_count ? index : -1;
  }
};

}  // namespace morel::bytecode

#endif  // MOREL_NODES_BYTECODE_BYTECODE_ROOT_NODE_H_
