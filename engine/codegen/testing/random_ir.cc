#include "engine/codegen/testing/random_ir.h"

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/ir/builder.h"

namespace morel::codegen::testing {
namespace {

using ir::Block;
using ir::Opcode;
using ir::Type;
using ir::Value;

class Generator {
 public:
  Generator(uint32_t seed, const RandomIrOptions& options) : rng_(seed), options_(options) {}

  std::unique_ptr<ir::Function> Build() {
    auto f = std::make_unique<ir::Function>("random", std::vector<Type>(3, Type::kI64),
                                            std::vector<Type>{Type::kI64, Type::kI64});
    ir::Builder b(f.get());
    b_ = &b;
    Block* entry = b.CreateEntryBlock();
    b.SetInsertionPoint(entry);
    ints_.assign(entry->params().begin(), entry->params().end());
    Regions(0);
    if (Pick(0, 9) == 0) {
      b.Deopt(State(ir::DeoptKind::kEager), "final deopt");
    } else {
      Value* digest = ints_[0];
      for (size_t k = 1; k < ints_.size(); ++k) {
        digest = b.Binary(Opcode::kXor, b.Binary(Opcode::kImul, digest, b.I64(31)), ints_[k]);
      }
      b.Return({digest, Any(ints_)});
    }
    return f;
  }

 private:
  int Pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  Value* Any(const std::vector<Value*>& v) { return v[Pick(0, static_cast<int>(v.size()) - 1)]; }
  int64_t Constant() {
    static constexpr int64_t kInteresting[] = {0, 1, -1, 2, 3, 7, 31, 32, 63, 64,
                                               INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    return Pick(0, 1) ? kInteresting[Pick(0, 13)] : Pick(-1000, 1000);
  }
  Value* Bool() {
    if (bools_.empty() || Pick(0, 3) == 0) {
      Value* v = b_->ICmp(static_cast<ir::Cond>(Pick(0, ir::kNumConds - 1)), Any(ints_),
                          Pick(0, 2) == 0 ? b_->I64(Constant()) : Any(ints_));
      bools_.push_back(v);
      return v;
    }
    return Any(bools_);
  }
  ir::ValuePair Pair() {
    return {Pick(0, 4) == 0 ? b_->I64(Constant()) : Any(ints_), Any(ints_)};
  }
  // A slot: with `objects`, sometimes a virtual object (eager states only:
  // a call's frame states may name none).
  ir::ValuePair Slot(bool objects) {
    if (objects && options_.objects && Pick(0, 3) == 0) {
      return {nullptr, Any(ints_), VirtualObject(0)};
    }
    return Pair();
  }
  ir::FrameState* State(ir::DeoptKind kind) {
    const bool objects = kind == ir::DeoptKind::kEager;
    state_objects_.clear();
    std::vector<ir::ValuePair> locals, stack;
    for (int i = Pick(0, 4); i > 0; --i) {
      locals.push_back(Pick(0, 4) == 0 ? ir::ValuePair::Illegal() : Slot(objects));
    }
    for (int i = Pick(0, 2); i > 0; --i) stack.push_back(Slot(objects));
    ir::FrameState* parent = nullptr;
    if (Pick(0, 2) == 0) {
      parent = b_->CreateFrameState(ir::DeoptKind::kLazy, 100 + Pick(0, 9), Pick(0, 50),
                                    {Slot(objects)}, {});
    }
    return b_->CreateFrameState(kind, Pick(1, 9), ++resume_, std::move(locals),
                                std::move(stack), parent);
  }
  ir::VirtualObject* AnyStateObject() {
    return state_objects_[Pick(0, static_cast<int>(state_objects_.size()) - 1)];
  }
  // A virtual object for the frame state being built: often one it names
  // already (one object, several slots), else a new one whose fields are
  // zero, values (i64, i32, constants) or other virtual objects (possibly
  // itself or one that names it: cycles), sometimes with an existing value.
  ir::VirtualObject* VirtualObject(int depth) {
    if (!state_objects_.empty() && Pick(0, 2) == 0) return AnyStateObject();
    ir::VirtualObject* vo = b_->function()->CreateVirtualObject();
    const int words = Pick(1, 6);
    vo->size = 8 * words;
    state_objects_.push_back(vo);
    for (int w = 0; w < words; ++w) {
      switch (Pick(0, 5)) {
        case 0: break;  // zero
        case 1: vo->fields.push_back({8 * w, Type::kI64, Any(ints_)}); break;
        case 2:
          vo->fields.push_back({8 * w + 4 * Pick(0, 1), Type::kI32, Narrow(Type::kI32)});
          break;
        case 3: vo->fields.push_back({8 * w, Type::kI64, b_->I64(Constant())}); break;
        default: {
          ir::VirtualObject* other =
              depth < 2 && Pick(0, 1) ? VirtualObject(depth + 1) : AnyStateObject();
          vo->fields.push_back({8 * w, Type::kPtr, nullptr, other});
          break;
        }
      }
    }
    // Sometimes an existing value that stands for the object where a
    // condition (a value, or a constant 0 or 1) holds.
    if (Pick(0, 3) == 0) {
      const int condition = Pick(0, 2);
      vo->existing_if = condition == 0 ? Any(ints_) : b_->I64(condition - 1);
      vo->existing = Any(ints_);
    }
    return vo;
  }

  // A value of `type` derived from the available i64 values.
  Value* Narrow(Type type) {
    Value* v = Any(ints_);
    return type == Type::kI64 ? v : b_->Convert(Opcode::kTrunc, type, v);
  }
  Value* Widen(Value* v) {
    if (v->type() == Type::kI64) return v;
    return b_->Convert(Pick(0, 1) ? Opcode::kSext : Opcode::kZext, Type::kI64, v);
  }

  void Emit() {
    ir::Builder& b = *b_;
    static constexpr Opcode kBinary[] = {Opcode::kIadd, Opcode::kIsub, Opcode::kImul,
                                         Opcode::kAnd,  Opcode::kOr,   Opcode::kXor,
                                         Opcode::kShl,  Opcode::kLshr, Opcode::kAshr};
    static constexpr Opcode kOverflow[] = {Opcode::kIaddOverflows, Opcode::kIsubOverflows,
                                           Opcode::kImulOverflows};
    switch (Pick(0, options_.objects ? 19 : 17)) {
      case 0: ints_.push_back(b.I64(Constant())); break;
      case 1:
      case 2: {
        Value* rhs = Pick(0, 3) == 0 ? b.I64(Constant()) : Any(ints_);
        ints_.push_back(b.Binary(kBinary[Pick(0, 8)], Any(ints_), rhs));
        break;
      }
      case 3: {  // i32 arithmetic
        Type t = Type::kI32;
        Value* rhs = Pick(0, 2) ? Narrow(t) : b.I32(Pick(-40, 40));
        Value* r = b.Binary(kBinary[Pick(0, 8)], Narrow(t), rhs);
        ints_.push_back(Widen(r));
        break;
      }
      case 4: {  // an overflow check as a value
        Type t = Pick(0, 1) ? Type::kI32 : Type::kI64;
        Value* x = Narrow(t);
        Value* y = Pick(0, 2) == 0 ? b.IConst(t, Constant()) : Narrow(t);
        bools_.push_back(b.Binary(kOverflow[Pick(0, 2)], x, y));
        ints_.push_back(Widen(bools_.back()));
        break;
      }
      case 5: {  // fused overflow guard pattern
        const int k = Pick(0, 2);
        static constexpr Opcode kArith[] = {Opcode::kIadd, Opcode::kIsub, Opcode::kImul};
        Value* x = Any(ints_);
        Value* y = Any(ints_);
        Value* s = b.Binary(kArith[k], x, y);
        Value* ok = b.Unary(Opcode::kNot, b.Binary(kOverflow[k], x, y));
        b.Guard(ok, State(ir::DeoptKind::kEager), "overflow " + std::to_string(resume_));
        ints_.push_back(s);
        break;
      }
      case 6: Bool(); break;
      case 7: {
        Value* c = Bool();
        Type t = Pick(0, 2) == 0 ? Type::kI32 : Type::kI64;
        ints_.push_back(Widen(b.Select(c, Narrow(t), Narrow(t))));
        break;
      }
      case 8: {  // i1 logic
        Value* r = b.Binary(Pick(0, 1) ? Opcode::kAnd : Opcode::kXor, Bool(), Bool());
        bools_.push_back(Pick(0, 1) ? b.Unary(Opcode::kNot, r) : r);
        ints_.push_back(Widen(bools_.back()));
        break;
      }
      case 9: {  // division by a safe divisor: a constant, or (v & 7) + 1
        Type t = Pick(0, 2) == 0 ? Type::kI32 : Type::kI64;
        Value* d = Pick(0, 1) ? b.IConst(t, Pick(2, 9) * (Pick(0, 1) ? 1 : -1))
                              : b.Binary(Opcode::kIadd,
                                         b.Binary(Opcode::kAnd, Narrow(t), b.IConst(t, 7)),
                                         b.IConst(t, 1));
        ints_.push_back(Widen(b.Binary(Pick(0, 1) ? Opcode::kSdiv : Opcode::kSrem, Narrow(t), d)));
        break;
      }
      case 10:
        ints_.push_back(b.Unary(Pick(0, 1) ? Opcode::kIneg : Opcode::kNot, Any(ints_)));
        break;
      case 11: {  // a guard: mostly holds
        Value* c = Pick(0, 3) != 0 ? b.ICmp(ir::Cond::kNe, Any(ints_), b.I64(12345)) : Bool();
        // Both deopt actions, alternating (no draw: the programs stay the same).
        const ir::DeoptAction action =
            resume_ % 2 != 0 ? ir::DeoptAction::kKeepCode : ir::DeoptAction::kInvalidate;
        b.Guard(c, State(ir::DeoptKind::kEager), "guard " + std::to_string(resume_), action);
        break;
      }
      case 12:
        if (options_.call1 != nullptr) {
          ir::FrameState* lazy = Pick(0, 1) ? State(ir::DeoptKind::kLazy) : nullptr;
          ints_.push_back(b.CallRuntime(options_.call1, {Any(ints_), Any(ints_)}, lazy)[0]);
        }
        break;
      case 13:
        if (options_.call2 != nullptr) {
          auto r = b.CallRuntime(options_.call2, {Any(ints_), Any(ints_)},
                                 State(ir::DeoptKind::kLazy));
          ints_.insert(ints_.end(), r.begin(), r.end());
        }
        break;
      case 14:
        if (!options_.call_target_arities.empty()) {
          const int id = Pick(1, static_cast<int>(options_.call_target_arities.size()));
          std::vector<Value*> args;
          for (int i = options_.call_target_arities[id - 1]; i > 0; --i) args.push_back(Any(ints_));
          const Type results[] = {Type::kI64, Type::kI64};
          auto r = b.CallTarget(id, args, results,
                                Pick(0, 1) ? State(ir::DeoptKind::kLazy) : nullptr);
          ints_.insert(ints_.end(), r.begin(), r.end());
        }
        break;
      case 15:
        if (options_.memory != nullptr) {
          Value* base = b.PConst(reinterpret_cast<uint64_t>(options_.memory));
          if (Pick(0, 1)) {
            b.Store(Any(ints_), base, 8 * Pick(0, 7));
          } else {
            ints_.push_back(b.Load(Type::kI64, base, 8 * Pick(0, 7)));
          }
        }
        break;
      case 16: {  // conversions through i1 and i32
        Value* v = b.Convert(Opcode::kTrunc, Type::kI1, Any(ints_));
        ints_.push_back(b.Convert(Pick(0, 1) ? Opcode::kSext : Opcode::kZext, Type::kI32, v));
        ints_.back() = Widen(ints_.back());
        break;
      }
      case 17: {  // a shift by a constant (i32 or i64)
        Type t = Pick(0, 1) ? Type::kI32 : Type::kI64;
        ints_.push_back(Widen(b.Binary(kBinary[Pick(6, 8)], Narrow(t), b.IConst(t, Pick(0, 70)))));
        break;
      }
      case 18:
      case 19:
        Objects();
        break;
    }
  }

  // Objects: word 0 is a link (ptr, never read as an integer), the other
  // words hold integers.
  void Objects() {
    ir::Builder& b = *b_;
    if (objects_.empty() || Pick(0, 3) == 0) {
      const int words = Pick(1, 8);
      objects_.push_back({b.Alloc(8 * words), words});
      return;
    }
    const Object& o = objects_[Pick(0, static_cast<int>(objects_.size()) - 1)];
    switch (Pick(0, 3)) {
      case 0:
        if (o.words > 1) b.Store(Any(ints_), o.ptr, 8 * Pick(1, o.words - 1));
        break;
      case 1:
        if (o.words > 1) ints_.push_back(b.Load(Type::kI64, o.ptr, 8 * Pick(1, o.words - 1)));
        break;
      case 2:
        b.Store(objects_[Pick(0, static_cast<int>(objects_.size()) - 1)].ptr, o.ptr, 0);
        break;
      case 3: {  // whether it is linked yet
        Value* link = b.Load(Type::kPtr, o.ptr, 0);
        bools_.push_back(b.ICmp(ir::Cond::kEq, link, b.PConst(0)));
        ints_.push_back(Widen(bools_.back()));
        break;
      }
    }
  }

  void Straight() {
    for (int n = Pick(1, 8); n > 0; --n) Emit();
  }

  void Regions(int depth) {
    for (int n = Pick(1, depth == 0 ? 4 : 2); n > 0; --n) {
      const int kind = depth >= 2 ? 0 : Pick(0, 3);
      if (kind <= 1) {
        Straight();
      } else if (kind == 2) {
        Diamond(depth);
      } else {
        Loop(depth);
      }
    }
  }

  // Runs `body` in a fresh scope: values defined inside do not escape.
  template <typename F>
  void Scoped(F body) {
    auto ints = ints_;
    auto bools = bools_;
    auto objects = objects_;
    body();
    ints_ = std::move(ints);
    bools_ = std::move(bools);
    objects_ = std::move(objects);
  }

  void Diamond(int depth) {
    ir::Builder& b = *b_;
    Block* then_block = b.CreateBlock();
    Block* else_block = b.CreateBlock();
    Block* join = b.CreateBlock();
    const int params = Pick(1, 2);
    std::vector<Value*> join_params;
    for (int i = 0; i < params; ++i) join_params.push_back(b.AddBlockParam(join, Type::kI64));
    b.Br(Bool(), then_block, {}, else_block, {});
    for (Block* arm : {then_block, else_block}) {
      b.SetInsertionPoint(arm);
      Scoped([&] {
        Regions(depth + 1);
        std::vector<Value*> args;
        for (int i = 0; i < params; ++i) args.push_back(Any(ints_));
        b.Jump(join, args);
      });
    }
    b.SetInsertionPoint(join);
    ints_.insert(ints_.end(), join_params.begin(), join_params.end());
  }

  void Loop(int depth) {
    ir::Builder& b = *b_;
    Block* header = b.CreateBlock();
    Block* exit = b.CreateBlock();
    Value* i = b.AddBlockParam(header, Type::kI64);
    Value* a = b.AddBlockParam(header, Type::kI64);
    Value* c = b.AddBlockParam(header, Type::kI64);
    Value* out0 = b.AddBlockParam(exit, Type::kI64);
    Value* out1 = b.AddBlockParam(exit, Type::kI64);
    Value* trip = Pick(0, 1) ? b.I64(Pick(0, 6))
                             : b.Binary(Opcode::kAnd, Any(ints_), b.I64(7));
    b.Jump(header, {b.I64(0), Any(ints_), Any(ints_)});
    b.SetInsertionPoint(header);
    Scoped([&] {
      ints_.push_back(i);
      ints_.push_back(a);
      ints_.push_back(c);
      Regions(depth + 1);
      Value* next = b.Binary(Opcode::kIadd, i, b.I64(1));
      Value* a2 = Any(ints_);
      Value* c2 = Pick(0, 1) ? a : Any(ints_);  // sometimes a parameter swap
      Value* more = b.ICmp(ir::Cond::kSlt, next, trip);
      b.Br(more, header, {next, a2, c2}, exit, {a2, c2});
    });
    b.SetInsertionPoint(exit);
    ints_.push_back(out0);
    ints_.push_back(out1);
  }

  std::mt19937 rng_;
  const RandomIrOptions& options_;
  ir::Builder* b_ = nullptr;
  std::vector<Value*> ints_;
  std::vector<Value*> bools_;
  struct Object {
    Value* ptr;
    int words;
  };
  std::vector<Object> objects_;                     // allocated, in scope
  std::vector<ir::VirtualObject*> state_objects_;  // of the frame state being built
  int64_t resume_ = 0;
};

}  // namespace

std::unique_ptr<ir::Function> RandomFunction(uint32_t seed, const RandomIrOptions& options) {
  return Generator(seed, options).Build();
}

}  // namespace morel::codegen::testing
