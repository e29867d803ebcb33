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
//   Call<&F>(args...)           call_runtime @F (a boundary: not entered)
//   LoadField(v, &C::m)         load at offsetof(C, m) from v's payload
//   C++ constants (cache data)  constants (compilation-final state)

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/ir/builder.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/runtime_call.h"
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
    return b().ICmp(ir::Cond::kEq, v.tag, b().I64(static_cast<int64_t>(tag)));
  }
  Long AsLong(V v) { return v.payload; }
  Bool AsBoolean(V v) { return b().ICmp(ir::Cond::kNe, v.payload, b().I64(0)); }
  V BoxLong(Long v) { return V{v, b().I64(kLongTag)}; }
  V BoxBoolean(Bool v) {
    return V{b().Convert(ir::Opcode::kZext, ir::Type::kI64, v), b().I64(kBooleanTag)};
  }
  V Constant(Value v) { return pe_.Constant(v); }

  // ---- boolean logic
  Bool True() { return b().Bool(true); }
  Bool And(Bool a, Bool c) { return b().Binary(ir::Opcode::kAnd, a, c); }
  Bool Or(Bool a, Bool c) { return b().Binary(ir::Opcode::kOr, a, c); }
  Bool Not(Bool a) { return b().Unary(ir::Opcode::kNot, a); }

  // ---- 64-bit arithmetic
  Overflowing<int64_t> AddOverflow(Long a, Long c) {
    return {b().Binary(ir::Opcode::kIadd, a, c),
            b().Binary(ir::Opcode::kIaddOverflows, a, c)};
  }
  Overflowing<int64_t> SubOverflow(Long a, Long c) {
    return {b().Binary(ir::Opcode::kIsub, a, c),
            b().Binary(ir::Opcode::kIsubOverflows, a, c)};
  }
  Overflowing<int64_t> MulOverflow(Long a, Long c) {
    return {b().Binary(ir::Opcode::kImul, a, c),
            b().Binary(ir::Opcode::kImulOverflows, a, c)};
  }
  // Only reached after the RewriteOn that rules out the trapping cases.
  Long LongDivide(Long a, Long c) { return b().Binary(ir::Opcode::kSdiv, a, c); }
  Bool LongEqual(Long a, Long c) { return b().ICmp(ir::Cond::kEq, a, c); }
  template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
  Bool LongEqual(Long a, I c) {
    return LongEqual(a, b().I64(static_cast<int64_t>(c)));
  }
  Bool LongLess(Long a, Long c) { return b().ICmp(ir::Cond::kSlt, a, c); }
  Bool LongLessEqual(Long a, Long c) { return b().ICmp(ir::Cond::kSle, a, c); }
  Bool ValueIdentical(V x, V y) {
    return And(b().ICmp(ir::Cond::kEq, x.payload, y.payload),
               b().ICmp(ir::Cond::kEq, x.tag, y.tag));
  }

  // ---- memory of referenced objects
  template <typename Class, typename T>
  ir::Value* LoadField(V v, T Class::*member) {
    static_assert(std::is_pointer_v<T> || std::is_same_v<T, int64_t> ||
                      std::is_same_v<T, uint64_t>,
                  "LoadField supports pointer and 64-bit integer fields");
    ir::Type type = std::is_pointer_v<T> ? ir::Type::kPtr : ir::Type::kI64;
    ir::Value* pointer = b().Convert(ir::Opcode::kBitcast, ir::Type::kPtr, v.payload);
    return b().Load(type, pointer, static_cast<int32_t>(OffsetOf(member)));
  }
  template <typename T>
  Bool PointerEqual(ir::Value* a, const T* c) {
    return b().ICmp(ir::Cond::kEq, a, b().PConst(reinterpret_cast<uint64_t>(c)));
  }
  V LoadValue(ir::Value* base, int index) {
    int32_t offset = static_cast<int32_t>(index * sizeof(Value));
    return V{b().Load(ir::Type::kI64, base, offset),
             b().Load(ir::Type::kI64, base, offset + 8)};
  }
  void StoreValue(ir::Value* base, int index, V value) {
    int32_t offset = static_cast<int32_t>(index * sizeof(Value));
    b().Store(value.payload, base, offset);
    b().Store(value.tag, base, offset + 8);
  }

  // ---- control
  void RewriteOn(Bool condition) { pe_.Speculate(Not(condition), "rewrite"); }
  void TransferToInterpreter() { pe_.Deopt("transferToInterpreter"); }
  void TransferToInterpreterAndInvalidate() {
    pe_.Deopt("transferToInterpreterAndInvalidate");
  }
  static constexpr bool InInterpreter() { return false; }

  template <auto F, typename... Args>
  auto Call(Args... args) {
    using Traits = runtime_call_internal::Traits<F>;
    using R = typename Traits::Result;
    const ir::RuntimeFunction* function =
        RuntimeCall<F>(pe_.runtime(), ir::RuntimeEffects::kNoDeopt);
    std::vector<ir::Value*> operands;
    (AddOperand(operands, args), ...);
    std::vector<ir::Value*> results = b().CallRuntime(function, operands);
    if constexpr (std::is_same_v<R, Value>) {
      return pe_.PropagatePendingException(V{results[0], results[1]});
    } else if constexpr (std::is_void_v<R>) {
      return;
    } else {
      return results[0];
    }
  }

  // Alternatives, for the specializer's emission: if (c) then() else else().
  template <typename Then, typename Else>
  V IfElse(Bool condition, Then then_part, Else else_part) {
    auto then_block = b().CreateBlock();
    auto else_block = b().CreateBlock();
    b().Br(condition, then_block, {}, else_block, {});
    PartialEvaluator::Merge merge = pe_.NewMerge(2);
    std::vector<PeValue> locals = pe_.SaveLocals();
    b().SetInsertionPoint(then_block);
    V t = then_part();
    if (!pe_.Terminated()) pe_.JumpTo(merge, {t.payload, t.tag});
    pe_.RestoreLocals(std::move(locals));
    b().SetInsertionPoint(else_block);
    V e = else_part();
    if (!pe_.Terminated()) pe_.JumpTo(merge, {e.payload, e.tag});
    std::vector<ir::Value*> extra = pe_.Continue(merge);
    return V{extra[0], extra[1]};
  }
  void Speculate(Bool condition, std::string reason) {
    pe_.Speculate(condition, std::move(reason));
  }
  // A value for code after a deoptimization (never used at run time).
  V Unreachable() { return V{b().I64(0), b().I64(kIllegalTag)}; }
  void Deopt(std::string reason) { pe_.Deopt(std::move(reason)); }

 private:
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

}  // namespace morel::pe

#endif  // MOREL_ENGINE_PE_PE_CONTEXT_H_
