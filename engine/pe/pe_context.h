#ifndef MOREL_ENGINE_PE_PE_CONTEXT_H_
#define MOREL_ENGINE_PE_PE_CONTEXT_H_

// PeContext: the execution context in which the partial evaluator runs
// specialization guards and bodies — the same templates the interpreter
// runs with InterpreterContext (nodes/interpreter_context.h), operation for
// operation, except that each operation emits IR:
//
//   InterpreterContext          PeContext
//   V = Value                   V = PeValue (payload, tag SSA values)
//   Bool/Long = bool/int64_t    ir::Value* (i1 / i64)
//   IsLong(v)                   icmp eq v.tag, long-tag
//   AddOverflow(a, b)           {iadd a b, iadd_overflows a b}
//   RewriteOn(c)                guard !c -> deoptimize to the node (which
//                               then rewrites in the interpreter)
//   Call<&F>(args...)           call_runtime @F (a boundary: not entered);
//                               a Span<const V> argument goes through the
//                               per-thread argument stack (span_arguments.h)
//   CallGuest<&F>(args...)      the same through the engine's guest-call
//                               entry with a lazy frame state (stack walks
//                               see this activation), then the
//                               lazy-invalidation check
//   CallFoldable<&F, &Fold>(args...)
//                               all arguments constant and Fold(args...)
//                               gives a result: that constant (an object
//                               the code keeps alive); else Call<&F>
//   CallDirect(call, args)      call_target @(call's current target), then
//                               the pending-exception and validity checks
//   AndThen(a, rest)            br a -> rest(), else false (short circuit)
//   AssumptionValid(a)          constant; the code depends on `a`
//   TransferToInterpreter()     deopt, keep_code (the code stays installed)
//   TransferToInterpreterAndInvalidate()  deopt (the code is dropped)
//   TransferToInterpreterIf(c)  guard !c, keep_code (the reason names the
//                               deopt)
//   New<T>(tag)                 alloc sizeof(T) (zero-filled, traced; may
//                               be removed by escape analysis); the value
//                               is {bitcast.i64 of it, tag}
//   NewValues(n)                alloc 16 n (the same, for an array of n
//                               Values an object points to); the pointer
//   LoadField(v, &C::m)         load at offsetof(C, m) from v's payload,
//                               alias class "C+offset" (see below)
//   StoreField(v, &C::m, x)     store there, same alias class
//   LoadValue(v, &C::slots, i)  two loads at offsetof(C, slots) + 16 i from
//                               v's payload (a Value array member: values
//                               inside the object), alias "value slots"
//   C++ constants (cache data)  constants (compilation-final state)

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "engine/ir/alias_class.h"
#include "engine/ir/builder.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/runtime_call.h"
#include "engine/pe/span_arguments.h"
#include "nodes/call_nodes.h"
#include "nodes/value.h"

namespace morel::pe {

class PeContext {
 public:
  using V = PeValue;
  using Bool = ir::Value*;
  using Long = ir::Value*;

  template <typename T>
  struct Overflowing {
    ir::Value* value;
    ir::Value* overflow;
  };

  explicit PeContext(PartialEvaluator& pe) : pe_(pe) {}

  ir::Builder& b() { return pe_.builder(); }

  // ---- type checks and conversions
  Bool IsLong(V v) { return HasTag(v, kLongTag); }
  Bool IsBoolean(V v) { return HasTag(v, kBooleanTag); }
  Bool HasTag(V v, ValueTag tag) {
    if (std::optional<int64_t> known = ConstantI64(v.tag)) {
      return b().Bool(*known == static_cast<int64_t>(tag));
    }
    return b().ICmp(ir::Cond::kEq, v.tag, b().I64(static_cast<int64_t>(tag)));
  }
  Long AsLong(V v) { return v.payload; }
  Bool AsBoolean(V v) {
    if (std::optional<int64_t> known = ConstantI64(v.payload)) return b().Bool(*known != 0);
    return b().ICmp(ir::Cond::kNe, v.payload, b().I64(0));
  }
  // The value of a constant boolean (an i1 `iconst`), if it is one.
  static std::optional<bool> ConstantBool(Bool value) {
    const ir::Instruction* definition = value->instruction();
    if (definition == nullptr || definition->opcode() != ir::Opcode::kIconst) {
      return std::nullopt;
    }
    return definition->imm() != 0;
  }
  V BoxLong(Long v) { return V{v, b().I64(kLongTag)}; }
  V BoxBoolean(Bool v) {
    if (std::optional<bool> known = ConstantBool(v)) {
      return V{b().I64(*known ? 1 : 0), b().I64(kBooleanTag)};
    }
    return V{b().Convert(ir::Opcode::kZext, ir::Type::kI64, v), b().I64(kBooleanTag)};
  }
  V Constant(Value v) { return pe_.Constant(v); }

  // ---- a language runtime's own tables (InterpreterContext).
  template <typename T>
  ir::Value* LoadPointer(T* const* address, const char* region) {
    return b().Load(ir::Type::kPtr, b().PConst(reinterpret_cast<uint64_t>(address)), 0,
                    ir::AliasClass::Get(region));
  }
  ir::Value* LoadPointerAt(ir::Value* table, int64_t index, const char* region) {
    return b().Load(ir::Type::kPtr, table, static_cast<int32_t>(index * sizeof(void*)),
                    ir::AliasClass::Get(region));
  }
  V BoxPointer(ir::Value* pointer, ValueTag tag) {
    return V{b().Convert(ir::Opcode::kBitcast, ir::Type::kI64, pointer),
             b().I64(static_cast<int64_t>(tag))};
  }

  // ---- boolean logic
  Bool True() { return b().Bool(true); }
  Bool False() { return b().Bool(false); }
  // With a constant operand (an assumption, a known tag) the result is
  // folded here, so IfElse sees a constant and emits one arm.
  Bool And(Bool a, Bool c) {
    if (std::optional<bool> known = ConstantBool(a)) return *known ? c : a;
    if (std::optional<bool> known = ConstantBool(c)) return *known ? a : c;
    return b().Binary(ir::Opcode::kAnd, a, c);
  }
  Bool Or(Bool a, Bool c) {
    if (std::optional<bool> known = ConstantBool(a)) return *known ? a : c;
    if (std::optional<bool> known = ConstantBool(c)) return *known ? c : a;
    return b().Binary(ir::Opcode::kOr, a, c);
  }
  Bool Not(Bool a) { return b().Unary(ir::Opcode::kNot, a); }
  // Short circuit as control flow: `rest` is emitted on the path where
  // `first` did not decide, so what it loads is only loaded there. A
  // constant `first` emits no branch.
  template <typename Rest>
  Bool AndThen(Bool first, Rest rest) {
    return ShortCircuit(first, rest, /*is_and=*/true);
  }
  template <typename Rest>
  Bool OrElse(Bool first, Rest rest) {
    return ShortCircuit(first, rest, /*is_and=*/false);
  }

  // ---- 64-bit arithmetic
  // Constant operands (e.g. an inlined callee's constant arguments) fold
  // here, during partial evaluation, so the guards and branches that use
  // the result fold too (and calls under them are never evaluated:
  // Removed in the call tree).
  Overflowing<int64_t> AddOverflow(Long a, Long c) {
    std::optional<int64_t> x = ConstantI64(a), y = ConstantI64(c);
    int64_t folded;
    if (x && y && !__builtin_add_overflow(*x, *y, &folded)) return {b().I64(folded), False()};
    return {b().Binary(ir::Opcode::kIadd, a, c),
            b().Binary(ir::Opcode::kIaddOverflows, a, c)};
  }
  Overflowing<int64_t> SubOverflow(Long a, Long c) {
    std::optional<int64_t> x = ConstantI64(a), y = ConstantI64(c);
    int64_t folded;
    if (x && y && !__builtin_sub_overflow(*x, *y, &folded)) return {b().I64(folded), False()};
    return {b().Binary(ir::Opcode::kIsub, a, c),
            b().Binary(ir::Opcode::kIsubOverflows, a, c)};
  }
  Overflowing<int64_t> MulOverflow(Long a, Long c) {
    return {b().Binary(ir::Opcode::kImul, a, c),
            b().Binary(ir::Opcode::kImulOverflows, a, c)};
  }
  // Only reached after the RewriteOn that rules out the trapping cases.
  Long LongDivide(Long a, Long c) { return b().Binary(ir::Opcode::kSdiv, a, c); }
  Bool LongEqual(Long a, Long c) { return Compare(ir::Cond::kEq, a, c); }
  template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
  Bool LongEqual(Long a, I c) {
    return LongEqual(a, b().I64(static_cast<int64_t>(c)));
  }
  Bool LongLess(Long a, Long c) { return Compare(ir::Cond::kSlt, a, c); }
  Bool LongLessEqual(Long a, Long c) { return Compare(ir::Cond::kSle, a, c); }
  Bool UnsignedLess(Long a, Long c) { return Compare(ir::Cond::kUlt, a, c); }
  // icmp, folded when both operands are constants.
  Bool Compare(ir::Cond cond, Long a, Long c) {
    std::optional<int64_t> x = ConstantI64(a), y = ConstantI64(c);
    if (!x || !y) return b().ICmp(cond, a, c);
    switch (cond) {
      case ir::Cond::kEq: return b().Bool(*x == *y);
      case ir::Cond::kSlt: return b().Bool(*x < *y);
      case ir::Cond::kSle: return b().Bool(*x <= *y);
      case ir::Cond::kUlt:
        return b().Bool(static_cast<uint64_t>(*x) < static_cast<uint64_t>(*y));
      default: return b().ICmp(cond, a, c);
    }
  }
  Bool ValueIdentical(V x, V y) {
    // Two constants (e.g. a constant property key against a cached one):
    // decided here, so the guards using it fold.
    std::optional<int64_t> xp = ConstantI64(x.payload), xt = ConstantI64(x.tag);
    std::optional<int64_t> yp = ConstantI64(y.payload), yt = ConstantI64(y.tag);
    if (xp && xt && yp && yt) return b().Bool(*xp == *yp && *xt == *yt);
    return And(b().ICmp(ir::Cond::kEq, x.payload, y.payload),
               b().ICmp(ir::Cond::kEq, x.tag, y.tag));
  }

  // ---- memory of referenced objects
  // Alias classes (engine/ir/alias_class.h), so load_elim keeps what it
  // knows of one region across stores into another:
  //   LoadField, StoreField    "C+<offset of m>": C is the class declaring m
  //   (v, &C::m)               (unqualified; two classes of one name share a
  //                            class, which is only more careful)
  //   LoadValue, StoreValue,   "value slots" (kValueSlots)
  //   LoadValueAt, StoreValueAt
  // The claim, which callers must keep true: a value accessor addresses a
  // Value slot -- an element of an array of Values in a block of its own
  // (SL: property storage, elements; the span-argument stack), or of a
  // Value array member of an object (LoadValue(v, &C::slots, i); SL: the
  // in-object property slots) -- never a field LoadField/StoreField
  // access: a Value array member is not such a field (LoadField reads only
  // pointer and 64-bit integer members), and no class's fields lie inside
  // another block's Value array. So "C+offset" classes and "value slots"
  // are disjoint memory. What the PE accesses itself (the interpreter frame
  // of OSR code and arguments, partial_evaluator.cc; the validity cell)
  // stays unknown (may alias anything), and calls still forget everything.
  static constexpr char kValueSlots[] = "value slots";
  // `alloc` of T's size rounded up to words: zero-filled, scanned by the
  // collector. The object is the interpreter's heap::AllocateTraced block
  // (InterpreterContext::New); escape analysis keeps it virtual where it
  // does not escape, and a deoptimization materializes it.
  template <typename T>
  V New(ValueTag tag) {
    static_assert(std::is_trivial_v<T> && std::is_standard_layout_v<T>);
    static_assert(alignof(T) <= 16, "the collector's blocks are 16-byte aligned");
    ir::Value* object = b().Alloc(static_cast<int64_t>((sizeof(T) + 7) & ~size_t{7}));
    return V{b().Convert(ir::Opcode::kBitcast, ir::Type::kI64, object),
             b().I64(static_cast<int64_t>(tag))};
  }
  // InterpreterContext::NewValues: a block of `count` cleared Values, the
  // pointer itself (LoadValue/StoreValue take it as their base).
  ir::Value* NewValues(int count) { return b().Alloc(static_cast<int64_t>(sizeof(Value)) * count); }
  template <typename Class, typename T>
  ir::Value* LoadField(V v, T Class::*member) {
    size_t offset = OffsetOf(member);
    return b().Load(FieldType<T>(), FieldBase(v), static_cast<int32_t>(offset),
                    FieldAliasClass<Class>(offset));
  }
  // `value` an SSA value of the field's type, or a C++ constant (a cache's
  // pointer, a number).
  template <typename Class, typename T>
  void StoreField(V v, T Class::*member, ir::Value* value) {
    MOREL_CHECK_MSG(value->type() == FieldType<T>(), "StoreField: a value of another type");
    size_t offset = OffsetOf(member);
    b().Store(value, FieldBase(v), static_cast<int32_t>(offset), FieldAliasClass<Class>(offset));
  }
  template <typename Class, typename T>
  void StoreField(V v, T Class::*member, std::type_identity_t<T> constant) {
    ir::Value* value;
    if constexpr (std::is_pointer_v<T>) {
      value = b().PConst(reinterpret_cast<uint64_t>(constant));
    } else {
      value = b().I64(static_cast<int64_t>(constant));
    }
    StoreField(v, member, value);
  }
  template <typename T>
  Bool PointerEqual(ir::Value* a, const T* c) {
    return b().ICmp(ir::Cond::kEq, a, b().PConst(reinterpret_cast<uint64_t>(c)));
  }
  // `index` may be negative (SL: an elements block's capacity at -1).
  V LoadValue(ir::Value* base, int index) {
    return LoadValueAtOffset(base, index * static_cast<int32_t>(sizeof(Value)));
  }
  void StoreValue(ir::Value* base, int index, V value) {
    StoreValueAtOffset(base, index * static_cast<int32_t>(sizeof(Value)), value);
  }
  // In-object values: at a constant offset from the object's own pointer,
  // so escape analysis sees them as fields of an allocation.
  template <typename Class, size_t N>
  V LoadValue(V v, Value (Class::*slots)[N], int index) {
    return LoadValueAtOffset(FieldBase(v), SlotOffset(slots, index));
  }
  template <typename Class, size_t N>
  void StoreValue(V v, Value (Class::*slots)[N], int index, V value) {
    StoreValueAtOffset(FieldBase(v), SlotOffset(slots, index), value);
  }
  // base + index * sizeof(Value), computed in i64 (a guard has checked the
  // bounds); the base stays live beside it, so the collector sees the block.
  V LoadValueAt(ir::Value* base, Long index) {
    return LoadValueAtOffset(ValueSlot(base, index), 0);
  }
  void StoreValueAt(ir::Value* base, Long index, V value) {
    StoreValueAtOffset(ValueSlot(base, index), 0, value);
  }

  ir::Value* ValueSlot(ir::Value* base, Long index) {
    static_assert(sizeof(Value) == 16);
    ir::Value* offset = b().Binary(ir::Opcode::kShl, index, b().I64(4));
    ir::Value* address = b().Binary(
        ir::Opcode::kIadd, b().Convert(ir::Opcode::kBitcast, ir::Type::kI64, base), offset);
    return b().Convert(ir::Opcode::kBitcast, ir::Type::kPtr, address);
  }

  // ---- control
  void RewriteOn(Bool condition) { pe_.Speculate(Not(condition), "rewrite"); }
  // Truffle's transferToInterpreter(): this activation continues in the
  // interpreter and the code stays installed (no re-profiling, no deopt
  // cycle). For paths that are rare but legitimate, not wrong guesses.
  void TransferToInterpreter() {
    pe_.Deopt("transferToInterpreter", ir::DeoptAction::kKeepCode);
  }
  // A wrong guess: deoptimizes and invalidates the code (the target
  // re-profiles and may compile again).
  void TransferToInterpreterAndInvalidate() {
    pe_.Deopt("transferToInterpreterAndInvalidate");
  }
  static constexpr bool InInterpreter() { return false; }
  // An assumption the code may rely on: nothing is emitted; the compilation
  // depends on it (PartialEvaluator::Assume). The interpreter's meaning is
  // `assumption->IsValid()`. Returns whether it is valid at compile time.
  bool Assume(Assumption* assumption) { return pe_.Assume(assumption); }

  // TransferToInterpreter() where `condition` holds: non-invalidating.
  void TransferToInterpreterIf(Bool condition, std::string reason) {
    pe_.Speculate(Not(condition), std::move(reason), ir::DeoptAction::kKeepCode);
  }
  // Valid now: the constant true, and this code depends on the assumption.
  // Invalid: the constant false, and no dependency (an invalid dependency
  // would keep the code from being installed at all).
  template <typename A>
  Bool AssumptionValid(A* assumption) {
    return b().Bool(assumption->IsValid() && pe_.Assume(assumption));
  }

  template <auto F, typename... Args>
  auto Call(Args... args) {
    return EmitCall<F>(/*may_run_guest_code=*/false, args...);
  }
  template <auto F, typename... Args>
  auto CallGuest(Args... args) {
    // A call partial evaluation cannot see into: an Indirect call-tree node.
    pe_.NoteIndirectCall();
    return EmitCall<F>(/*may_run_guest_code=*/true, args...);
  }
  // Evaluated now, on the compiler thread, where every argument is a
  // constant and Fold has a result for them (InterpreterContext::
  // CallFoldable states Fold's contract); otherwise Call<&F>.
  template <auto F, auto Fold, typename... Args>
  auto CallFoldable(Args... args) -> decltype(Call<F>(args...)) {
    static_assert((std::is_same_v<Args, V> && ...), "CallFoldable takes guest values");
    if ((ConstantValue(args).has_value() && ...)) {
      if (auto folded = Fold(*ConstantValue(args)...)) return Folded(*folded);
    }
    return Call<F>(args...);
  }

  // call_target to the node's current target (a split copy if the node was
  // split). The callee may raise (the pending-exception marker returns at
  // once) or invalidate this code (checked after the call, resuming after
  // it). A callee that reads its caller's frame sees this activation
  // through the call's lazy frame state (engine/runtime/compiled_frames.h;
  // x86_64 and the IR tier). One that writes it (SL's helloEqualsWorld)
  // needs a frame it can write: compiled code transfers to the interpreter
  // right before the call, keeping the code (TransferToInterpreter), and
  // the interpreter makes the call on its own frame and finishes the
  // activation. Compiled frames are not written back (TODO(#6): a callee
  // writing through the stack walk, then deoptimizing the caller after
  // the call with the written locals, would keep the caller compiled up to
  // the call).
  V CallDirect(DirectCallNode* call, absl::Span<const V> arguments) {
    CallTarget* target = call->current_call_target();
    // OSR code runs on the interpreter's own frame and keeps it current
    // around calls (BeforeCall/AfterCall): such a callee of the OSR frame
    // writes real slots (one of a callee inlined there does not).
    if (target->root_node()->WritesCallerFrame() && !pe_.on_osr_frame()) {
      pe_.Deopt(absl::StrCat("calls ", target->name(), ", which writes its caller's frame"),
                ir::DeoptAction::kKeepCode);
      return Unreachable();
    }
    // The inliner's choice: the callee's body evaluated here, its
    // arguments as SSA values (constant ones fold), its frame states
    // chained to this one's. (Not a callee that writes the OSR frame: it
    // needs the interpreter's frame as its caller's.)
    if (!target->root_node()->WritesCallerFrame()) {
      if (std::optional<V> inlined = pe_.TryInline(call, target, arguments)) return *inlined;
    }
    std::vector<ir::Value*> operands;
    for (const V& argument : arguments) AddOperand(operands, argument);
    pe_.BeforeCall();
    // The lazy state records where the locals are while the callee runs, so
    // a stack walk (stacktrace()) materializes this frame
    // (engine/runtime/compiled_frames.h). OSR code keeps the interpreter's
    // frame current instead (the state lists only the frames inlined into
    // it, if any).
    std::vector<ir::Value*> results =
        b().CallTarget(EncodeCallTargetId(target, static_cast<int>(arguments.size())), operands,
                       {ir::Type::kI64, ir::Type::kI64}, pe_.LazyFrameState());
    pe_.AfterCall(target->root_node()->WritesCallerFrame());
    return pe_.CheckValidAfterCall(
        pe_.PropagatePendingException(V{results[0], results[1]}));
  }

  // Alternatives, for the specializer's emission and a node's branch
  // (engine/pe/node_compiler.h): if (c) then() else else(), each arm from
  // the same locals, joined with the value the arms return (a V), if any.
  template <typename Then, typename Else>
  auto IfElse(Bool condition, Then then_part, Else else_part) {
    using R = decltype(then_part());
    static_assert(std::is_same_v<R, V> || std::is_void_v<R>, "arms return a V or nothing");
    // A constant condition (e.g. an assumption, a folded guard): one arm.
    if (std::optional<bool> known = ConstantBool(condition)) {
      return *known ? then_part() : else_part();
    }
    auto then_block = b().CreateBlock();
    auto else_block = b().CreateBlock();
    b().Br(condition, then_block, {}, else_block, {});
    PartialEvaluator::Merge merge = pe_.NewMerge(std::is_void_v<R> ? 0 : 2);
    auto arm = [&](ir::Block* block, auto& part) {
      b().SetInsertionPoint(block);
      if constexpr (std::is_void_v<R>) {
        part();
        if (!pe_.Terminated()) pe_.JumpTo(merge);
      } else {
        V v = part();
        if (!pe_.Terminated()) pe_.JumpTo(merge, {v.payload, v.tag});
      }
    };
    std::vector<PeValue> locals = pe_.SaveLocals();
    arm(then_block, then_part);
    pe_.RestoreLocals(std::move(locals));
    arm(else_block, else_part);
    std::vector<ir::Value*> extra = pe_.Continue(merge);
    if constexpr (!std::is_void_v<R>) return V{extra[0], extra[1]};
  }
  void Speculate(Bool condition, std::string reason) {
    pe_.Speculate(condition, std::move(reason));
  }
  // A value for code after a deoptimization (never used at run time).
  V Unreachable() { return V{b().I64(0), b().I64(kIllegalTag)}; }
  void Deopt(std::string reason) { pe_.Deopt(std::move(reason)); }

  // The value of an iconst, else nullopt (also for the partial evaluator).
  static std::optional<int64_t> ConstantI64(ir::Value* value) {
    const ir::Instruction* definition = value->instruction();
    if (definition == nullptr || definition->opcode() != ir::Opcode::kIconst) {
      return std::nullopt;
    }
    return definition->imm();
  }

 private:
  // v's value if both its words are constants.
  static std::optional<Value> ConstantValue(V v) {
    std::optional<int64_t> payload = ConstantI64(v.payload), tag = ConstantI64(v.tag);
    if (!payload.has_value() || !tag.has_value()) return std::nullopt;
    return Value{static_cast<uint64_t>(*payload), static_cast<ValueTag>(*tag)};
  }
  V Folded(Value value) {
    if (value.IsReference()) pe_.dependencies().KeepAlive(value);
    return Constant(value);
  }
  Bool Folded(bool value) { return b().Bool(value); }
  Long Folded(int64_t value) { return b().I64(value); }
  template <typename Rest>
  Bool ShortCircuit(Bool first, Rest& rest, bool is_and) {
    if (std::optional<bool> known = ConstantBool(first)) {
      return *known == is_and ? rest() : first;
    }
    ir::Block* rest_block = b().CreateBlock();
    ir::Block* join = b().CreateBlock();
    ir::Value* result = b().AddBlockParam(join, ir::Type::kI1);
    ir::Value* decided = b().Bool(!is_and);
    if (is_and) {
      b().Br(first, rest_block, {}, join, {decided});
    } else {
      b().Br(first, join, {decided}, rest_block, {});
    }
    b().SetInsertionPoint(rest_block);
    Bool rest_value = rest();
    if (!pe_.Terminated()) b().Jump(join, {rest_value});
    b().SetInsertionPoint(join);
    return result;
  }

  template <typename... Args>
  static constexpr bool LastIsSpan() {
    if constexpr (sizeof...(Args) == 0) {
      return false;
    } else {
      return std::is_same_v<std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>,
                            absl::Span<const V>>;
    }
  }

  template <auto F, typename... Args>
  auto EmitCall(bool may_run_guest_code, Args... args) {
    if constexpr (LastIsSpan<Args...>()) {
      return EmitSpanCall<F>(may_run_guest_code, std::make_tuple(args...),
                             std::make_index_sequence<sizeof...(Args) - 1>());
    } else {
      return EmitCallAs<F>(runtime_call_internal::FunctionName<F>(), may_run_guest_code,
                           args...);
    }
  }

  // F's last parameter is a Span<const Value>: the values go to reserved
  // argument-stack slots, and SpanThunk<F> calls F over them and releases
  // them (span_arguments.h). Only stores lie between the two calls.
  template <auto F, typename Tuple, size_t... I>
  auto EmitSpanCall(bool may_run_guest_code, Tuple args, std::index_sequence<I...>) {
    absl::Span<const V> values = std::get<sizeof...(I)>(args);
    ir::Value* count = b().I64(static_cast<int64_t>(values.size()));
    ir::Value* slots;
    if (values.empty()) {
      slots = b().PConst(0);
    } else {
      slots = EmitReserveSpanArguments(count);
      for (size_t i = 0; i < values.size(); ++i) {
        StoreValue(slots, static_cast<int>(i), values[i]);
      }
    }
    return EmitCallAs<SpanThunk<F>::kCall>(
        absl::StrCat(runtime_call_internal::FunctionName<F>(), "[span]"),
        may_run_guest_code, std::get<I>(args)..., slots, count);
  }

  // ReserveSpanArguments(count) through EmitCallAs, with its return type
  // spelled out: clang does not deduce EmitCallAs's return type inside
  // another member template defined before it is complete.
  ir::Value* EmitReserveSpanArguments(ir::Value* count);

  template <auto F, typename... Args>
  auto EmitCallAs(const std::string& name, bool may_run_guest_code, Args... args) {
    using Traits = runtime_call_internal::Traits<F>;
    using R = typename Traits::Result;
    std::vector<ir::Value*> operands;
    (AddOperand(operands, args), ...);
    std::vector<ir::Value*> results;
    if (may_run_guest_code) pe_.BeforeCall();
    if (may_run_guest_code && !pe_.on_osr_frame() && GuestCallEntry() != nullptr) {
      // Through the engine's guest-call entry (runtime_call.h), with the
      // lazy frame state: a stack walk while F runs lists this activation
      // (engine/runtime/compiled_frames.h). OSR code keeps the
      // interpreter's frame current instead (BeforeCall/AfterCall); the
      // state of a call from a callee inlined there lists the inlined
      // frames only. The entry passes F's operands as whole words.
      auto as_word = [&](ir::Value* operand) {
        return operand->type() == ir::Type::kI1
                   ? b().Convert(ir::Opcode::kZext, ir::Type::kI64, operand)
                   : operand;
      };
      if constexpr (Traits::kWords <= kGuestCallMaxWords) {
        std::vector<ir::Value*> words = {
            b().PConst(reinterpret_cast<uint64_t>(&Traits::Invoke))};
        for (ir::Value* operand : operands) words.push_back(as_word(operand));
        results = b().CallRuntime(GuestRuntimeCall<F>(pe_.runtime(), name), words,
                                  pe_.LazyFrameState());
      } else {
        // Too many words for the entry's registers: F's words go to slots
        // of the span argument stack, which PackedInvoke releases.
        ir::Value* count = b().I64((Traits::kWords + 1) / 2);
        ir::Value* slots = EmitReserveSpanArguments(count);
        for (size_t i = 0; i < operands.size(); ++i) {
          b().Store(as_word(operands[i]), slots, static_cast<int32_t>(8 * i));
        }
        std::vector<ir::Value*> words = {
            b().PConst(reinterpret_cast<uint64_t>(&runtime_call_internal::PackedInvoke<F>)),
            slots, count};
        results = b().CallRuntime(PackedGuestRuntimeCall<F>(pe_.runtime(), name), words,
                                  pe_.LazyFrameState());
      }
    } else {
      // F directly: calls that run no guest code, and the OSR frame's.
      const ir::RuntimeFunction* function =
          RuntimeCall<F>(pe_.runtime(), ir::RuntimeEffects::kNoDeopt, name);
      results = b().CallRuntime(function, operands);
      if (may_run_guest_code) pe_.AfterCall();
    }
    if constexpr (std::is_same_v<R, Value>) {
      V result = pe_.PropagatePendingException(V{results[0], results[1]});
      return may_run_guest_code ? pe_.CheckValidAfterCall(result) : result;
    } else if constexpr (std::is_void_v<R>) {
      return;
    } else {
      return results[0];
    }
  }

  template <typename T>
  static ir::Type FieldType() {
    static_assert(std::is_pointer_v<T> || std::is_same_v<T, int64_t> ||
                      std::is_same_v<T, uint64_t>,
                  "LoadField/StoreField support pointer and 64-bit integer fields");
    return std::is_pointer_v<T> ? ir::Type::kPtr : ir::Type::kI64;
  }
  // The object v's payload points to.
  ir::Value* FieldBase(V v) {
    return b().Convert(ir::Opcode::kBitcast, ir::Type::kPtr, v.payload);
  }
  template <typename Class, size_t N>
  static int32_t SlotOffset(Value (Class::*slots)[N], int index) {
    MOREL_CHECK_MSG(index >= 0 && static_cast<size_t>(index) < N, "slot index out of range");
    return static_cast<int32_t>(OffsetOf(slots) + index * sizeof(Value));
  }
  V LoadValueAtOffset(ir::Value* base, int32_t offset) {
    return V{b().Load(ir::Type::kI64, base, offset, ValueSlots()),
             b().Load(ir::Type::kI64, base, offset + 8, ValueSlots())};
  }
  void StoreValueAtOffset(ir::Value* base, int32_t offset, V value) {
    b().Store(value.payload, base, offset, ValueSlots());
    b().Store(value.tag, base, offset + 8, ValueSlots());
  }

  static const ir::AliasClass* ValueSlots() {
    static const ir::AliasClass* const slots = ir::AliasClass::Get(kValueSlots);
    return slots;
  }
  // "Class+offset", e.g. "SLObject+8".
  template <typename Class>
  static const ir::AliasClass* FieldAliasClass(size_t offset) {
    static const std::string* const class_name = new std::string(UnqualifiedTypeName<Class>());
    return ir::AliasClass::Get(absl::StrCat(*class_name, "+", offset));
  }
  // T's name without its namespaces (kept whole if it is a template).
  template <typename T>
  static std::string UnqualifiedTypeName() {
    absl::string_view text = __PRETTY_FUNCTION__;
    size_t start = text.find("T = ");
    if (start == absl::string_view::npos) return "object";
    start += 4;
    size_t end = text.find_first_of(";]", start);
    absl::string_view name = text.substr(start, end - start);
    size_t colons = name.rfind("::");
    if (name.find('<') == absl::string_view::npos && colons != absl::string_view::npos) {
      name.remove_prefix(colons + 2);
    }
    return std::string(name);
  }

  template <typename Class, typename T>
  static size_t OffsetOf(T Class::*member) {
    alignas(Class) static char storage[sizeof(Class)];
    auto* object = reinterpret_cast<Class*>(storage);
    return reinterpret_cast<char*>(&(object->*member)) - storage;
  }

  void AddOperand(std::vector<ir::Value*>& out, V v) {
    out.push_back(v.payload);
    out.push_back(v.tag);
  }
  void AddOperand(std::vector<ir::Value*>& out, ir::Value* v) { out.push_back(v); }
  template <typename T>
  void AddOperand(std::vector<ir::Value*>& out, T* pointer) {
    out.push_back(b().PConst(reinterpret_cast<uint64_t>(pointer)));
  }
  template <typename T>
  void AddOperand(std::vector<ir::Value*>& out, const T* pointer) {
    out.push_back(b().PConst(reinterpret_cast<uint64_t>(pointer)));
  }

  PartialEvaluator& pe_;
};

inline ir::Value* PeContext::EmitReserveSpanArguments(ir::Value* count) {
  return EmitCallAs<&ReserveSpanArguments>("morel::pe::ReserveSpanArguments",
                                           /*may_run_guest_code=*/false, count);
}

}  // namespace morel::pe

#endif  // MOREL_ENGINE_PE_PE_CONTEXT_H_
