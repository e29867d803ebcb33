#ifndef MOREL_NODES_INTERPRETER_CONTEXT_H_
#define MOREL_NODES_INTERPRETER_CONTEXT_H_

// InterpreterContext: the execution context in which the interpreter runs
// specialization guards and bodies (nodes/specialization.h).
//
// A specialization is written once, as templates over a context type C, in
// this vocabulary only: C::V (a guest value), C::Bool, C::Long, and the
// operations below. The interpreter instantiates it with this context, which
// computes; the partial evaluator instantiates it with a context of the same
// vocabulary that emits IR instead (guards become speculation checks or
// branches, RewriteOn becomes a deoptimization, Call a call to the same
// function, which the compiler does not enter). Keeping bodies inside this
// vocabulary is what makes the two agree.
//
// Rules for bodies: no side effects before the last RewriteOn (the body runs
// to its end even when a RewriteOn fired, and its result is dropped), so
// every primitive operation is total; anything that is not a primitive
// operation on values or a plain access to a guest object's memory (New,
// LoadField/StoreField, LoadValue/StoreValue: compiled code emits these
// inline, where escape analysis can see through them) goes through
// Call<&Function> (or CallFoldable<&Function, &Fold>, which the compiler
// may evaluate at compile time on constant arguments).

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "absl/types/span.h"
#include "nodes/call_nodes.h"
#include "nodes/heap.h"
#include "nodes/value.h"

namespace morel {

struct InterpreterContext {
  using V = Value;
  using Bool = bool;
  using Long = int64_t;

  template <typename T>
  struct Overflowing {
    T value;
    bool overflow;
  };

  // ---- type checks and conversions
  static bool IsLong(Value v) { return v.IsLong(); }
  static bool IsBoolean(Value v) { return v.IsBoolean(); }
  static bool HasTag(Value v, ValueTag tag) { return v.tag == tag; }
  static int64_t AsLong(Value v) { return v.AsLong(); }
  static bool AsBoolean(Value v) { return v.AsBoolean(); }
  static Value BoxLong(int64_t v) { return Value::Long(v); }
  static Value BoxBoolean(bool v) { return Value::Boolean(v); }
  static Value Constant(Value v) { return v; }

  // ---- a language runtime's own tables, outside guest objects: a pointer
  // loaded from `address`, entry `index` of a table of pointers, and a
  // pointer as a guest value with `tag`. `region` names the memory for
  // compiled code (its alias class): nothing else compiled touches it, and
  // it changes only in calls.
  template <typename T>
  static T* LoadPointer(T* const* address, const char* /*region*/) {
    return *address;
  }
  template <typename T>
  static T* LoadPointerAt(T* const* table, int64_t index, const char* /*region*/) {
    return table[index];
  }
  static Value BoxPointer(const void* pointer, ValueTag tag) {
    return Value::Reference(tag, pointer);
  }

  // ---- boolean logic (both operands are evaluated; guards are pure)
  static bool True() { return true; }
  static bool And(bool a, bool b) { return a && b; }
  static bool Or(bool a, bool b) { return a || b; }
  static bool Not(bool a) { return !a; }
  // Short-circuit forms: `rest` (a callable returning Bool) runs only when
  // needed, so it may do what is only safe after `first` (e.g. load a field
  // through a payload that `first` proved to be an object pointer).
  template <typename Rest>
  static bool AndThen(bool first, Rest rest) {
    return first && rest();
  }
  template <typename Rest>
  static bool OrElse(bool first, Rest rest) {
    return first || rest();
  }

  // ---- 64-bit arithmetic
  static Overflowing<int64_t> AddOverflow(int64_t a, int64_t b) {
    int64_t r;
    bool o = __builtin_add_overflow(a, b, &r);
    return {r, o};
  }
  static Overflowing<int64_t> SubOverflow(int64_t a, int64_t b) {
    int64_t r;
    bool o = __builtin_sub_overflow(a, b, &r);
    return {r, o};
  }
  static Overflowing<int64_t> MulOverflow(int64_t a, int64_t b) {
    int64_t r;
    bool o = __builtin_mul_overflow(a, b, &r);
    return {r, o};
  }
  // Total: a body may compute it before RewriteOn discards the result, so
  // the cases that trap in C++ (zero divisor, INT64_MIN / -1) yield 0 here
  // and must be excluded by a RewriteOn.
  static int64_t LongDivide(int64_t a, int64_t b) {
    if (b == 0 || (b == -1 && a == INT64_MIN)) return 0;
    return a / b;
  }
  static bool LongEqual(int64_t a, int64_t b) { return a == b; }
  static bool LongLess(int64_t a, int64_t b) { return a < b; }
  static bool LongLessEqual(int64_t a, int64_t b) { return a <= b; }
  // a < b as unsigned numbers: for b >= 0, 0 <= a < b in one comparison
  // (an index bounds check).
  static bool UnsignedLess(int64_t a, int64_t b) {
    return static_cast<uint64_t>(a) < static_cast<uint64_t>(b);
  }
  static bool ValueIdentical(Value a, Value b) { return a == b; }

  // ---- memory of referenced objects (payload pointers)
  // A new T in the collected heap, zero-filled and scanned for pointers
  // (heap::AllocateTraced), as a reference value of `tag`. T is a plain
  // struct of whole words (pointers, 64-bit integers, Values) that is
  // valid zero-filled; the caller stores what is not zero. Compiled code
  // allocates the same block inline, and escape analysis may keep it
  // virtual: only its contents and identity are observable.
  template <typename T>
  static Value New(ValueTag tag) {
    static_assert(std::is_trivial_v<T> && std::is_standard_layout_v<T>);
    static_assert(alignof(T) <= 16, "the collector's blocks are 16-byte aligned");
    return Value::Reference(tag, heap::AllocateTraced(sizeof(T)));
  }
  // `count` Values in the collected heap, cleared (each Illegal): an array
  // an object points to (SL: property storage). Compiled code allocates it
  // inline too, and escape analysis may keep it virtual with its object.
  static Value* NewValues(int count) {
    return static_cast<Value*>(heap::AllocateTraced(sizeof(Value) * count));
  }
  // `member` of the object `v` points to (a pointer or 64-bit integer field).
  template <typename Class, typename T>
  static T LoadField(Value v, T Class::*member) {
    return v.As<Class>()->*member;
  }
  template <typename Class, typename T>
  static void StoreField(Value v, T Class::*member, std::type_identity_t<T> value) {
    v.As<Class>()->*member = value;
  }
  template <typename T>
  static bool PointerEqual(const T* a, const T* b) {
    return a == b;
  }
  static Value LoadValue(const Value* base, int index) { return base[index]; }
  static void StoreValue(Value* base, int index, Value value) {
    base[index] = value;
  }
  // Element `index` (a constant) of the Value array member `slots` of the
  // object `v` points to: values kept in the object itself.
  template <typename Class, size_t N>
  static Value LoadValue(Value v, Value (Class::*slots)[N], int index) {
    return (v.As<Class>()->*slots)[index];
  }
  template <typename Class, size_t N>
  static void StoreValue(Value v, Value (Class::*slots)[N], int index, Value value) {
    (v.As<Class>()->*slots)[index] = value;
  }
  // The same at a computed index (which a guard has bounds-checked).
  static Value LoadValueAt(const Value* base, int64_t index) { return base[index]; }
  static void StoreValueAt(Value* base, int64_t index, Value value) {
    base[index] = value;
  }

  // ---- control
  // Leaves this specialization when `condition` holds: the specializer
  // excludes it and re-specializes (Truffle's rewriteOn). The body's result
  // is discarded, so nothing before this may have side effects.
  void RewriteOn(bool condition) { rewrite |= condition; }

  // Compiler directives (nodes/directives.h) in context form. In compiled
  // code TransferToInterpreter/TransferToInterpreterIf keep the code
  // installed, TransferToInterpreterAndInvalidate drops it.
  static void TransferToInterpreter() {}
  static void TransferToInterpreterAndInvalidate() {}
  // Compiled code leaves for the interpreter when `condition` holds, before
  // anything after it happened (deoptimizing for `reason`); the interpreter
  // is already there.
  static void TransferToInterpreterIf(bool, const char*) {}
  static constexpr bool InInterpreter() { return true; }

  // An assumption (Truffle's Assumption; any type with IsValid(), e.g.
  // nodes/assumption.h's Assumption): the interpreter checks it; compiled
  // code relies on it without a check and is invalidated when it breaks.
  template <typename A>
  static bool AssumptionValid(const A* assumption) {
    return assumption->IsValid();
  }

  // A call the compiler does not enter (a boundary): runtime functions,
  // slow paths, guest errors. Arguments are passed as given, including
  // absl::Span<const Value> (compiled code passes those through a
  // per-thread argument stack).
  template <auto Function, typename... Args>
  static auto Call(Args... args) {
    return Function(args...);
  }
  // Call of a runtime function that may run guest code (e.g. an indirect
  // call): compiled code checks afterwards that it was not invalidated
  // meanwhile (lazy invalidation, engine/pe).
  template <auto Function, typename... Args>
  static auto CallGuest(Args... args) {
    return Function(args...);
  }
  // Call<&Function> that the compiler may evaluate while compiling: where
  // every argument (guest values only) is a constant, partial evaluation
  // calls Fold(arguments...) on the compiler thread and, if it returns a
  // result, uses it instead of the call (a constant; an object it returns
  // is embedded in the code and kept alive as long as the code, one per
  // compilation, so its identity must be unobservable). Fold returns
  // std::optional of Function's result: what Function returns for those
  // arguments, or nullopt where it cannot tell without effects. It runs
  // concurrently with guest code, so it must not modify its arguments
  // (e.g. a lazily flattened string it may only read if already flat).
  // The interpreter calls Function.
  template <auto Function, auto Fold, typename... Args>
  static auto CallFoldable(Args... args) {
    return Function(args...);
  }
  // A guest call through a call node (DirectCallNode, nodes/call_nodes.h):
  // compiled code calls the node's current target (splits respected).
  MOREL_FAST_PATH static Value CallDirect(DirectCallNode* call, absl::Span<const Value> arguments) {
    return call->TargetForCall()->CallFromInterpreter(arguments);
  }

  bool rewrite = false;
};

// The interpreter's context for a guard on a path that must not call
// (Specializer::TryInline, for OperatorNode::TryRunInline): a call returns
// a default value and sets `called`, and the caller abandons the attempt
// for the node's general path (a guard has no effects to undo).
struct CallFreeGuardContext : InterpreterContext {
  template <auto Function, typename... Args>
  auto Call(Args... args) {
    called = true;
    return decltype(Function(args...)){};
  }
  template <auto Function, typename... Args>
  auto CallGuest(Args... args) {
    return Call<Function>(args...);
  }
  template <auto Function, auto Fold, typename... Args>
  auto CallFoldable(Args... args) {
    return Call<Function>(args...);
  }
  Value CallDirect(DirectCallNode*, absl::Span<const Value>) {
    called = true;
    return Value::Illegal();
  }

  bool called = false;
};

}  // namespace morel

#endif  // MOREL_NODES_INTERPRETER_CONTEXT_H_
