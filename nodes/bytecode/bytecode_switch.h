#ifndef MOREL_NODES_BYTECODE_BYTECODE_SWITCH_H_
#define MOREL_NODES_BYTECODE_BYTECODE_SWITCH_H_

// The bytecode interpreter switch: the dispatch loop of a BytecodeRootNode
// (bytecode_root_node.h), a template over the operation classes it inlines
// (Truffle's @BytecodeInterpreterSwitch). Included by bytecode_root_node.cc,
// whose BytecodeRootNode::Dispatch inlines none, and by the one file of a
// language that instantiates its root's switch:
//
//   // root_nodes.h
//   using MyInlined = bytecode::InlinedOperations<MyAddNode, MyLessNode>;
//   extern template class bytecode::BytecodeRootNodeWith<MyInlined>;
//   class MyBytecodeRootNode final
//       : public bytecode::BytecodeRootNodeWith<MyInlined> { ... };
//   // bytecode_switch.cc
//   #include "nodes/bytecode/bytecode_switch.h"
//   template class bytecode::BytecodeRootNodeWith<MyInlined>;
//
// Quickening. Each operation instruction (`op` and its fused forms,
// MOREL_OPERATION_FORMS) of the quickened code whose operation node is inlined
// operation class i gets the opcode QuickenedOpcode(form, i), past the
// table of bytecode.h, with a handler of its own: the handler calls the
// class's ExecuteOperation non-virtually, so the host compiler inlines its
// fast path (the operation's inline specializations; the rest stays behind
// the Specializer's cutoff) into the loop, and the instruction's indirect
// jump predicts per operation class. An operation replaced by a node of
// another class is requickened (BytecodeRootNode::OnChildReplaced).
// testing/host_inlining checks SL's switch.

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <new>
#include <optional>

#include "absl/types/span.h"
#include "nodes/bytecode/bytecode.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/bytecode/bytecode_root_node.h"
#include "nodes/bytecode/interpreter_stack.h"
#include "nodes/bytecode_osr_node.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/directives.h"
#include "nodes/frame.h"
#include "nodes/loop_node.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"
#include "nodes/value.h"

namespace morel::bytecode {

// The operation forms (MOREL_OPERATION_FORMS, bytecode.h), in the order of
// their opcodes and quickened opcodes.
enum class OperationForm : int32_t {
#define MOREL_OPERATION_FORM_ENUM(name, ...) k##name,
  MOREL_OPERATION_FORMS(MOREL_OPERATION_FORM_ENUM, )
#undef MOREL_OPERATION_FORM_ENUM
};
// The form of an operation instruction's opcode (IsOperation).
inline constexpr OperationForm FormOf(Opcode op) {
  return static_cast<OperationForm>(static_cast<int32_t>(op) -
                                    static_cast<int32_t>(Opcode::kOperation));
}
static_assert(FormOf(Opcode::kOperationConstantStore) == OperationForm::kOperationConstantStore &&
              FormOf(Opcode::kOperationLocalConstantBranchTrue) ==
                  OperationForm::kOperationLocalConstantBranchTrue);
// The quickened opcode of form `form` running inlined operation class `i`.
inline constexpr int32_t QuickenedOpcode(OperationForm form, int i) {
  return kNumOpcodes + static_cast<int32_t>(form) * kMaxInlinedOperations + i;
}

namespace switch_internal {

// The back edges of one activation. Counted in a local (one increment and
// compare per back edge) and handed out in batches: to the call target as
// loop iterations (at most every kReportInterval, and when the activation
// leaves, also by a guest error, as LoopNode reports its iterations) and to
// the root's OSR back-edge counter, each batch ending where the next OSR
// poll may come due (BytecodeOSRNode::BackEdgesUntilPoll), so that polls
// fall on the same back edges as with a poll per back edge.
class BackEdgeCounter {
 public:
  static constexpr int kReportInterval = 1024;
  // The first batch is one back edge: its Flush sets the limit, so an
  // activation that never loops (a call) does not compute one.
  explicit BackEdgeCounter(BytecodeRootNode& root) : root_(&root) {}
  // Runs at every return of the loop: inline, its reports out of line.
  [[gnu::always_inline]] ~BackEdgeCounter() { Report(); }
  // A call that the loop runs (Activation): the callee's activation counts
  // from here; the caller's batch waits in its record (pending(), limit()).
  void Enter(BytecodeRootNode& callee) {
    root_ = &callee;
    pending_ = 0;
    limit_ = 1;
  }
  // Its return: the callee's batch is handed out, as when an activation
  // leaves the loop, and the caller's batch resumes.
  [[gnu::always_inline]] void Leave(BytecodeRootNode& caller, int pending, int limit) {
    Report();
    root_ = &caller;
    pending_ = pending;
    limit_ = limit;
  }
  int pending() const { return pending_; }
  int limit() const { return limit_; }
  // Counts a back edge; true when the batch is complete (then Flush()).
  bool Count() { return ++pending_ >= limit_; }
  // The next batch ends where the next poll may come due (after TryOSR,
  // which may have reset the method's count).
  void Rearm() { limit_ = NextLimit(); }
  // Hands the batch out; returns whether an OSR poll is due.
  bool Flush() {
    const int batch = pending_;
    pending_ = 0;
    LoopNode::ReportLoopCount(*root_, batch);
    const bool due = BytecodeOSRNode::PollOSRBackEdge(*root_, batch);
    limit_ = NextLimit();
    return due;
  }
  // Hands out what a batch that stops early holds (an activation leaves):
  // inline, its reports out of line.
  [[gnu::always_inline]] static void Report(BytecodeRootNode& root, int pending) {
    if (pending == 0) return;
    LoopNode::ReportLoopCount(root, pending);
    // Fewer than BackEdgesUntilPoll: no poll can be due.
    BytecodeOSRNode::CountOSRBackEdges(root, pending);
  }

 private:
  [[gnu::always_inline]] void Report() { Report(*root_, pending_); }
  int NextLimit() const {
    return static_cast<int>(
        std::min<int64_t>(BytecodeOSRNode::BackEdgesUntilPoll(*root_), kReportInterval));
  }

  BytecodeRootNode* root_;
  int pending_ = 0;
  int limit_ = 1;
};

// A batch of back edges is complete (BackEdgeCounter::Count): hands it out
// and, when an OSR poll is due, tries OSR from `target` with the operand
// stack's height `height`. True when OSR code ran the rest of the call
// target (then `*result` is its result). Out of line
// (bytecode_root_node.cc): the interpreter loop keeps only the count and the
// compare.
MOREL_INLINING_CUTOFF bool FlushBackEdges(BackEdgeCounter& counter, BytecodeRootNode& root,
                                          int target, int height, Frame& frame, Value* result);

// A call that the loop runs itself (a callee root of the same switch):
// what the caller's activation resumes with at the callee's return, then
// the callee's Frame; the callee's frame storage follows the record. On the
// thread's InterpreterStack.
struct alignas(InterpreterStack::kAlignment) Activation {
  Activation(Activation* caller_record, const int32_t* return_ip, Value* caller_sp,
             const BackEdgeCounter& back_edges, bool store, absl::Span<const Value> arguments,
             BytecodeRootNode* callee, Frame* caller_frame)
      : caller_record(caller_record),
        return_ip(return_ip),
        caller_sp(caller_sp),
        back_edges_pending(back_edges.pending()),
        back_edges_limit(back_edges.limit()),
        store(store),
        frame(&callee->frame_descriptor(), reinterpret_cast<Value*>(this + 1), arguments, callee,
              caller_frame) {}

  // The caller's root: its frame's (a root of the same switch).
  BytecodeRootNode& caller_root() const {
    return *static_cast<BytecodeRootNode*>(frame.caller()->root());
  }

  // The caller's own record; null for the activation the switch was
  // entered with.
  Activation* caller_record;
  // Past the call's instruction.
  const int32_t* return_ip;
  // Below the call's operands (the callee's arguments are among them).
  Value* caller_sp;
  // The caller's batch of back edges (BackEdgeCounter).
  int back_edges_pending;
  int back_edges_limit;
  // The instruction stores the result into the local its last word names
  // (an op.store form) instead of pushing it.
  bool store;
  Frame frame;
};
static_assert(sizeof(Activation) % InterpreterStack::kAlignment == 0);

// An exception leaves the loop while calls it runs are active: their frames
// go with it. Hands out each caller's batch of back edges (the innermost
// activation's is the BackEdgeCounter's, which its destructor hands out),
// makes the frame the loop was entered with current again, and pops the
// interpreter stack. Out of line, cold.
MOREL_SLOW_PATH void UnwindActivations(Activation* innermost);
class ActivationsOnThrow {
 public:
  explicit ActivationsOnThrow(Activation*& current) : current_(current) {}
  // Runs at every return of the loop: inline.
  [[gnu::always_inline]] ~ActivationsOnThrow() {
    if (current_ != nullptr) [[unlikely]] {
      UnwindActivations(current_);
    }
  }
  ActivationsOnThrow(const ActivationsOnThrow&) = delete;
  ActivationsOnThrow& operator=(const ActivationsOnThrow&) = delete;

 private:
  Activation*& current_;
};

// Copies `from` to `*to` a word at a time. As a struct copy GCC moves a
// Value through an SSE register, and an operation that then loads the
// pushed value's two words stalls on store forwarding (AMD EPYC: the SL
// `loop` bytecode 19% slower in wall time with 23% fewer instructions).
[[gnu::always_inline]] inline void CopyValue(Value* to, const Value* from) {
  const uint64_t bits = from->bits;
  const ValueTag tag = from->tag;
  to->bits = bits;
  to->tag = tag;
}

// store.local: widens the slot's kind in the frame descriptor (as a
// language's write node does), then stores. Also the fused forms' store.
inline void StoreLocal(const FrameDescriptor& descriptor, Value* locals, int slot, Value value) {
  descriptor.RecordWrite(slot, value);
  locals[slot] = value;
}

// Runs inlined operation class I on `operands`: its ExecuteOperation called
// non-virtually (I < 0: an operation of another class, through its vtable).
// Handlers of classes the switch does not have are never reached (no
// quickened opcode names them).
// Operator nodes run their specializations on the operands without an
// execution context (OperatorNode::RunOnOperands). The other inlined
// operations (SL's calls) run through the Operating context
// (nodes/execution.h), whose fields GCC keeps in memory; running SL's
// invoke on its operands without it measured no gain (callgrind +0.2-0.5%
// on the bytecode programs): the call dominates.
template <typename Inlined, int I>
[[gnu::always_inline]] inline Value RunInlined(BytecodeOperation* operation, Frame& frame,
                                               absl::Span<const Value> operands) {
  if constexpr (I < 0) {
    return operation->ExecuteOperation(frame, operands);
  } else if constexpr (I < Inlined::kCount) {
    using Op = typename Inlined::template At<I>;
    // A reference cast: an instruction's operation is never null, and a
    // pointer cast would test for null on every operation.
    return static_cast<Op&>(*operation).Op::ExecuteOperation(frame, operands);
  } else {
    __builtin_unreachable();
  }
}

// The most operands an instruction's operation reads in place.
inline constexpr int kMaxOperandsInPlace = 3;

// Whether inlined operation class I reads its operands where they are
// (OperatorNode::RunOnOperandsAt, for operator nodes of at most
// kMaxOperandsInPlace operands): the locals and the constant an instruction
// names, and the stack operands below them, through pointers. The other
// operations get one span, the named operands copied onto the stack first:
// two loads and two stores each, and a load of each again by the operation
// (callgrind, SL's bytecode interpreter, in place against copied: loop
// 0.87, kernel 0.90, sieve 0.91, fib 0.95; wall time on an Intel Xeon:
// sieve and fib 0.97, loop and kernel between 0.90 and 1.02 over four
// paired runs, no gain that stands out of the noise).
template <typename Inlined, int I>
constexpr bool OperandsInPlace() {
  if constexpr (I >= 0 && I < Inlined::kCount) {
    using Op = typename Inlined::template At<I>;
    constexpr int kArity = Inlined::kArity[I];
    constexpr bool kInPlace = kArity >= 0 && kArity <= kMaxOperandsInPlace &&
                              requires(Op & op, const Value* const* operands) {
      op.RunOnOperandsAt(operands);
    };
    static_assert(kInPlace || !Inlined::template kCalled<I>,
                  "a CalledOperation is an operator node of at most kMaxOperandsInPlace operands");
    return kInPlace;
  } else {
    return false;
  }
}

// Runs inlined operation class I (OperandsInPlace) on *operands[0..]:
// inline, or as a call with the pointers as arguments (Inlined::kCalled).
template <typename Op, size_t... J>
[[gnu::always_inline]] inline Value CallAt(Op& operation, const Value* const* operands,
                                           std::index_sequence<J...>) {
  return operation.RunOnOperandsAtCalled(operands[J]...);
}
template <typename Inlined, int I>
[[gnu::always_inline]] inline Value RunInlinedAt(BytecodeOperation* operation,
                                                 const Value* const* operands) {
  if constexpr (OperandsInPlace<Inlined, I>()) {
    using Op = typename Inlined::template At<I>;
    if constexpr (Inlined::template kCalled<I>) {
      return CallAt(static_cast<Op&>(*operation), operands,
                    std::make_index_sequence<Inlined::kArity[I]>());
    } else {
      return static_cast<Op&>(*operation).RunOnOperandsAt(operands);
    }
  } else {
    __builtin_unreachable();
  }
}

// The operand count of an instruction of inlined operation class I:
// `encoded` (the instruction's), or the class's fixed count when it has one
// (Inlined::kArity; Quicken checks that they agree), a constant then.
template <typename Inlined, int I>
[[gnu::always_inline]] constexpr int InlinedArity(int encoded) {
  if constexpr (I >= 0 && I < Inlined::kCount) {
    constexpr int kArity = Inlined::kArity[I];
    if constexpr (kArity >= 0) return kArity;
  }
  return encoded;
}

// Whether inlined operation class I tells the switch its calls (CallFor,
// bytecode_operation.h): the switch then runs a callee root of its own in
// its loop.
template <typename Inlined, int I>
constexpr bool CallsInLoop() {
  if constexpr (I >= 0 && I < Inlined::kCount) {
    using Op = typename Inlined::template At<I>;
    return !OperandsInPlace<Inlined, I>() && requires(Op & op, absl::Span<const Value> operands) {
      { op.CallFor(operands) } -> std::same_as<OperationCall>;
    };
  } else {
    return false;
  }
}
template <typename Inlined, int I>
[[gnu::always_inline]] inline OperationCall CallOf(BytecodeOperation* operation,
                                                   absl::Span<const Value> operands) {
  using Op = typename Inlined::template At<I>;
  return static_cast<Op&>(*operation).CallFor(operands);
}

}  // namespace switch_internal

// The interpreter loop. `ip` points at the instruction, `sp` past the top
// of the operand stack, which is the frame's (`stack`); operands stay in the
// frame until the instruction that consumes them is done (a collection
// during an operation sees them).
//
// Calls. An operation that tells its calls (CallsInLoop) and calls a
// root of this switch (RootNode::interpreter_loop) that needs nothing
// first (CallTarget::EnterInterpreterInPlace) has the callee run in this
// loop: the callee's frame goes on the thread's InterpreterStack with a
// record of the caller's state (switch_internal::Activation), the loop's
// variables switch to the callee (`self`, `fr`, and what derives from
// them), and its return switches back. No native call, no second entry of
// the loop. A callee that does not fit on that stack, or that is of
// another kind, is a native call (CallTarget::Call).
template <typename Inlined>
Value BytecodeRootNode::DispatchWith(Frame& frame, int bci, int height) {
  using switch_internal::Activation;
  using switch_internal::BackEdgeCounter;
  using switch_internal::CopyValue;
  using switch_internal::FlushBackEdges;
  using switch_internal::InlinedArity;
  using switch_internal::RunInlined;
  using switch_internal::StoreLocal;
  // The activation the loop runs: its root and frame, and what the
  // handlers read of them.
  BytecodeRootNode* self = this;
  Frame* fr = &frame;
  const int32_t* code;
  const Value* constants;
  BytecodeOperation* const* operations;
  Value* locals;
  Value* stack;
  const FrameDescriptor* descriptor;
#define MOREL_ENTER_ACTIVATION()               \
  code = self->quickened_code_.data();         \
  constants = self->program_.constants.data(); \
  operations = self->operations_.data();       \
  locals = fr->slot_storage();                 \
  stack = locals + self->stack_base();         \
  descriptor = &fr->descriptor()
  MOREL_ENTER_ACTIVATION();
  const int32_t* ip = code + bci;
  Value* sp = stack + height;
  // (The activation's arguments and runtime are read where they are used:
  // set up here, they were spilled on every call for the few instructions
  // that read them.)
  BackEdgeCounter back_edges(*this);
  // The record of the call the loop runs now (Activation), null while it
  // runs the activation it was entered with; the thread's interpreter
  // stack, once a call needs it.
  Activation* activation = nullptr;
  InterpreterStack* interpreter_stack = nullptr;
  switch_internal::ActivationsOnThrow unwind_on_throw(activation);
  // A taken branch to `target` at or before it: a loop's back edge. Polls
  // the safepoint and counts toward OSR; true when OSR code ran the rest of
  // the activation from `target`, whose operand stack (`height` values)
  // is in the frame: then `*result` is the activation's result.
  auto back_edge = [&back_edges](BytecodeRootNode* root, Frame* frame, int target, int height,
                                 Value* result) {
    NodeRuntime* const runtime = root->runtime();
    if (runtime != nullptr && runtime->SafepointRequested()) [[unlikely]] {
      runtime->OnSafepoint();
    }
    if (back_edges.Count()) [[unlikely]] {
      return FlushBackEdges(back_edges, *root, target, height, *frame, result);
    }
    return false;
  };
  // The operation forms' handlers (layouts: bytecode.h), for an operation
  // of inlined class I (I < 0: any other, through its vtable). Each points
  // in_place at its operands, when the class reads them in place
  // (OperandsInPlace), or else pushes its fused operands (locals, a
  // constant) above the others, so the operation sees one span; then it
  // jumps to the operation's body: one that pushes the
  // result, one that stores it (into the local named by the instruction's
  // last word) and one per branch sense (to the bci in that word), so that
  // the host compiler inlines an inlined class's fast path four times in
  // the loop, not once per form. (One branch body with the sense in a
  // variable ran SL's `loop` 4-8% slower, nodes/bytecode/README.md.)
  // The handler of one form (its words: OperationLayout, bytecode.h). The
  // in-place and copying paths address the fused operands each by hand: a
  // shared always-inline helper left the optimized loop as it was but grew
  // its frame under --config=asan from 22.8 to 32.9 KB (a slot per inlined
  // call), and deep guest recursion then overflowed the native stack
  // (StackOverflowInCompiledCode in bytecode deopt stress).
#define MOREL_FORM(form, suffix, I)                                                             \
  handle_k##form##suffix : {                                                                    \
    constexpr OperationLayout kLayout = LayoutOf(Opcode::k##form);                              \
    op = operations[ip[1]];                                                                     \
    if constexpr (switch_internal::OperandsInPlace<Inlined, I>()) {                             \
      constexpr int kStacked = InlinedArity<Inlined, I>(0) - kLayout.fused();                   \
      if constexpr (kStacked < 0) {                                                             \
        __builtin_unreachable();                                                                \
      } else {                                                                                  \
        sp -= kStacked;                                                                         \
        if constexpr (kStacked >= 1) in_place[0] = sp;                                          \
        if constexpr (kStacked >= 2) in_place[1] = sp + 1;                                      \
        if constexpr (kStacked >= 3) in_place[2] = sp + 2;                                      \
        if constexpr (kLayout.locals >= 1) {                                                    \
          in_place[kStacked] = &locals[ip[kLayout.local_word(0)]];                              \
        }                                                                                       \
        if constexpr (kLayout.locals >= 2) {                                                    \
          in_place[kStacked + 1] = &locals[ip[kLayout.local_word(1)]];                          \
        }                                                                                       \
        if constexpr (kLayout.constant) {                                                       \
          in_place[kStacked + kLayout.locals] = &constants[ip[kLayout.constant_word()]];        \
        }                                                                                       \
      }                                                                                         \
    } else {                                                                                    \
      if constexpr (kLayout.locals >= 1) CopyValue(sp++, &locals[ip[kLayout.local_word(0)]]);   \
      if constexpr (kLayout.locals >= 2) CopyValue(sp++, &locals[ip[kLayout.local_word(1)]]);   \
      if constexpr (kLayout.constant) CopyValue(sp++, &constants[ip[kLayout.constant_word()]]); \
      n = InlinedArity<Inlined, I>(ip[kLayout.stack_count_word()] + kLayout.fused());           \
    }                                                                                           \
    ip += kLayout.length();                                                                     \
    if constexpr (kLayout.store()) {                                                            \
      goto store##suffix;                                                                       \
    } else if constexpr (kLayout.tail == OperationTail::kBranchFalse) {                         \
      goto branch_false##suffix;                                                                \
    } else if constexpr (kLayout.tail == OperationTail::kBranchTrue) {                          \
      goto branch_true##suffix;                                                                 \
    } else {                                                                                    \
      goto push##suffix;                                                                        \
    }                                                                                           \
  }
#define MOREL_FORM_OF(name, mnemonic, locals, constant, tail, suffix, I) MOREL_FORM(name, suffix, I)
  // The operation's result: in place (the form's handler set in_place and
  // popped the stacked operands) or on the top n stack slots, which
  // MOREL_POP pops first.
#define MOREL_POP(I) \
  if constexpr (!switch_internal::OperandsInPlace<Inlined, I>()) sp -= n
#define MOREL_RUN(I)                                             \
  (switch_internal::OperandsInPlace<Inlined, I>()                \
       ? switch_internal::RunInlinedAt<Inlined, I>(op, in_place) \
       : RunInlined<Inlined, I>(op, *fr, absl::Span<const Value>(sp, n)))
  // A class that tells its calls (CallsInLoop) makes them at call_in_loop,
  // a host function's here; the result goes to call_result: pushed, or
  // stored (`call_stores`). (The host call routed through call_in_loop
  // instead, one copy fewer: callgrind fib +2.3%, richards +1%.)
#define MOREL_CALL_IN_LOOP(I, stores)                                                         \
  if constexpr (switch_internal::CallsInLoop<Inlined, I>()) {                                 \
    operation_call = switch_internal::CallOf<Inlined, I>(op, absl::Span<const Value>(sp, n)); \
    if (operation_call.IsCall()) {                                                            \
      call_stores = stores;                                                                   \
      goto call_in_loop;                                                                      \
    }                                                                                         \
    if (operation_call.function != nullptr) {                                                 \
      call_stores = stores;                                                                   \
      result = operation_call.function(operation_call.data, operation_call.arguments);        \
      goto call_result;                                                                       \
    }                                                                                         \
  }
#define MOREL_OPERATION_HANDLERS(suffix, I)         \
  MOREL_OPERATION_FORMS(MOREL_FORM_OF, suffix, I)   \
  push##suffix : {                                  \
    MOREL_POP(I);                                   \
    MOREL_CALL_IN_LOOP(I, false);                   \
    *sp = MOREL_RUN(I);                             \
    ++sp;                                           \
    MOREL_NEXT();                                   \
  }                                                 \
  store##suffix : {                                 \
    MOREL_POP(I);                                   \
    MOREL_CALL_IN_LOOP(I, true);                    \
    const Value value = MOREL_RUN(I);               \
    StoreLocal(*descriptor, locals, ip[-1], value); \
    MOREL_NEXT();                                   \
  }                                                 \
  branch_false##suffix : {                          \
    MOREL_POP(I);                                   \
    if (MOREL_RUN(I).AsBoolean()) MOREL_NEXT();     \
    goto taken_fused;                               \
  }                                                 \
  branch_true##suffix : {                           \
    MOREL_POP(I);                                   \
    if (!MOREL_RUN(I).AsBoolean()) MOREL_NEXT();    \
    goto taken_fused;                               \
  }
  // One list of the inlined classes' indices, for labels and table alike.
#define MOREL_INLINED_INDICES(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
  // (The same with an argument for X: a form's row of the handler table.)
#define MOREL_INLINED_INDICES_OF(X, a)                                              \
  X(0, a) X(1, a) X(2, a) X(3, a) X(4, a) X(5, a) X(6, a) X(7, a) X(8, a) X(9, a) \
  X(10, a) X(11, a) X(12, a) X(13, a) X(14, a) X(15, a)
  static_assert(kMaxInlinedOperations == 16, "MOREL_INLINED_INDICES lists every index");
  // Threaded dispatch: each instruction jumps to the next one's handler
  // through this table (one indirect jump per handler, which predicts
  // better than one shared switch): the opcodes of MOREL_BYTECODES in their
  // order, then the quickened ones (QuickenedOpcode).
#define MOREL_BYTECODE_HANDLER(name, mnemonic, operands, pops, pushes) &&handle_##name,
#define MOREL_FORM_HANDLER(i, form) &&handle_k##form##_##i,
#define MOREL_FORM_ROW(name, ...) MOREL_INLINED_INDICES_OF(MOREL_FORM_HANDLER, name)
  static const void* const kHandlers[] = {MOREL_BYTECODES(MOREL_BYTECODE_HANDLER)  //
                                          MOREL_OPERATION_FORMS(MOREL_FORM_ROW, )};
#undef MOREL_FORM_ROW
#undef MOREL_FORM_HANDLER
#undef MOREL_BYTECODE_HANDLER
  static_assert(
      sizeof(kHandlers) / sizeof(kHandlers[0]) ==
      QuickenedOpcode(OperationForm::kOperation, kNumOperationForms * kMaxInlinedOperations));
#define MOREL_NEXT() goto* kHandlers[*ip]
  Value result;
  // An operation instruction's operation and operand count, set by its
  // form's handler for the operation's body (push, store, branch_false,
  // branch_true).
  BytecodeOperation* op;
  int n;
  // (The operands an operation reads in place: OperandsInPlace.)
  const Value* in_place[switch_internal::kMaxOperandsInPlace];
  // An operation's call (CallsInLoop), for call_in_loop.
  OperationCall operation_call;
  bool call_stores;
  MOREL_NEXT();
handle_kConstant:
  CopyValue(sp++, &constants[ip[1]]);
  ip += 2;
  MOREL_NEXT();
handle_kArgument : {
  const size_t index = static_cast<size_t>(ip[1]);
  const absl::Span<const Value> arguments = fr->arguments();
  CopyValue(sp++, index < arguments.size() ? &arguments[index] : &constants[ip[2]]);
  ip += 3;
  MOREL_NEXT();
}
handle_kArgumentStore : {
  const size_t index = static_cast<size_t>(ip[1]);
  const absl::Span<const Value> arguments = fr->arguments();
  StoreLocal(*descriptor, locals, ip[3],
             index < arguments.size() ? arguments[index] : constants[ip[2]]);
  ip += 4;
  MOREL_NEXT();
}
handle_kLoadLocal:
  CopyValue(sp++, &locals[ip[1]]);
  ip += 2;
  MOREL_NEXT();
handle_kLoadLocalChecked : {
  Value value = locals[ip[1]];
  if (value.IsIllegal()) [[unlikely]] {
    value = operations[ip[2]]->ExecuteOperation(*fr, {});
  }
  *sp++ = value;
  ip += 3;
  MOREL_NEXT();
}
handle_kStoreLocal:
  StoreLocal(*descriptor, locals, ip[1], *--sp);
  ip += 2;
  MOREL_NEXT();
handle_kPop:
  --sp;
  ip += 1;
  MOREL_NEXT();
handle_kDup:
  CopyValue(sp, sp - 1);
  ++sp;
  ip += 1;
  MOREL_NEXT();
handle_kBranch : {
  const int target = ip[1];
  if (target <= ip - code && back_edge(self, fr, target, static_cast<int>(sp - stack), &result))
      [[unlikely]] {
    goto activation_return;
  }
  ip = code + target;
  MOREL_NEXT();
}
handle_kBranchFalse:
  if ((--sp)->AsBoolean()) {
    ip += 2;
    MOREL_NEXT();
  }
  goto taken_conditional;
handle_kBranchTrue:
  if (!(--sp)->AsBoolean()) {
    ip += 2;
    MOREL_NEXT();
  }
taken_conditional : {
  const int target = ip[1];
  if (target <= ip - code && back_edge(self, fr, target, static_cast<int>(sp - stack), &result))
      [[unlikely]] {
    goto activation_return;  // a conditional back edge
  }
  ip = code + target;
  MOREL_NEXT();
}
  // A fused branch taken (ip is past its instruction, whose last word is
  // the target): a target before the instruction's end is one at or
  // before its start, a back edge.
taken_fused : {
  const int target = ip[-1];
  if (target < ip - code && back_edge(self, fr, target, static_cast<int>(sp - stack), &result))
      [[unlikely]] {
    goto activation_return;
  }
  ip = code + target;
  MOREL_NEXT();
}
  // (The result is copied a word at a time, CopyValue: its two words are
  // read apart, to return it or push it.)
handle_kReturn:
  CopyValue(&result, --sp);
  goto activation_return;
handle_kReturnLocal:
  CopyValue(&result, &locals[ip[1]]);
  // The activation's result: the loop's, or its caller's (a call the loop
  // runs) to push or store.
activation_return:
  if (activation == nullptr) [[likely]] {
    return result;
  }
  {
    Activation* const returning = activation;
    self = &returning->caller_root();
    back_edges.Leave(*self, returning->back_edges_pending, returning->back_edges_limit);
    fr = returning->frame.caller();
    InterpreterStack::SetCurrentFrame(fr);
    activation = returning->caller_record;
    interpreter_stack->PopTo(returning);
    MOREL_ENTER_ACTIVATION();
    ip = returning->return_ip;
    sp = returning->caller_sp;
    call_stores = returning->store;
    goto call_result;
  }
  // An operation's call (operation_call; the operands popped): the callee
  // runs in this loop when it is a root of this switch that needs nothing
  // first and its frame fits on the interpreter stack (the class comment);
  // else it is a native call.
  // (Unused in a switch whose classes make no calls.)
call_in_loop:
  __attribute__((unused));
  {
    CallTarget* const target = operation_call.call != nullptr ? operation_call.call->TargetForCall()
                                                              : operation_call.target;
    RootNode* const callee_root = target->root_node();
    if (callee_root->interpreter_loop() == &root_internal::kInterpreterLoop<Inlined>) {
      auto* const callee = static_cast<BytecodeRootNode*>(callee_root);
      const size_t bytes = sizeof(Activation) + callee->frame_storage_bytes();
      if (interpreter_stack == nullptr) interpreter_stack = &InterpreterStack::ForThisThread();
      if (interpreter_stack->HasRoom(bytes) && target->EnterInterpreterInPlace()) {
        auto* const record = new (interpreter_stack->Push(bytes)) Activation(
            activation, ip, sp, back_edges, call_stores, operation_call.arguments, callee, fr);
        // The descriptor's slots and the scratch slot start unassigned, as
        // CallTarget::Call sets them up; the operand stack (from
        // stack_base()) is written first.
        std::fill_n(record->frame.slot_storage(), callee->stack_base(), Value::Illegal());
        back_edges.Enter(*callee);
        activation = record;
        self = callee;
        fr = &record->frame;
        InterpreterStack::SetCurrentFrame(fr);
        MOREL_ENTER_ACTIVATION();
        ip = code;
        sp = stack;
        MOREL_NEXT();
      }
    }
    result = target->Call(operation_call.arguments);
  }
  // A call's result (`result`; `ip` past the call's instruction).
call_result:
  __attribute__((unused));
  if (call_stores) {
    StoreLocal(*descriptor, locals, ip[-1], result);
  } else {
    CopyValue(sp++, &result);
  }
  MOREL_NEXT();
  // Operations called through their vtables, then the inlined classes'.
  MOREL_OPERATION_HANDLERS(, -1)
#define MOREL_INLINED_HANDLERS(i) MOREL_OPERATION_HANDLERS(_##i, i)
  MOREL_INLINED_INDICES(MOREL_INLINED_HANDLERS)
#undef MOREL_INLINED_HANDLERS
#undef MOREL_INLINED_INDICES_OF
#undef MOREL_INLINED_INDICES
#undef MOREL_OPERATION_HANDLERS
#undef MOREL_CALL_IN_LOOP
#undef MOREL_ENTER_ACTIVATION
#undef MOREL_FORM_OF
#undef MOREL_RUN
#undef MOREL_POP
#undef MOREL_FORM
#undef MOREL_NEXT
}

template <typename Inlined>
Value BytecodeRootNodeWith<Inlined>::Dispatch(Frame& frame, int bci, int height) {
  return this->template DispatchWith<Inlined>(frame, bci, height);
}

template <typename Inlined>
Value BytecodeRootNodeWith<Inlined>::Execute(Frame& frame) {
  return this->template DispatchWith<Inlined>(frame, 0, 0);
}

}  // namespace morel::bytecode

#endif  // MOREL_NODES_BYTECODE_BYTECODE_SWITCH_H_
