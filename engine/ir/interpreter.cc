#include "engine/ir/interpreter.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/ir/printer.h"
#include "engine/ir/semantics.h"

namespace morel::ir {
namespace {

absl::Status Undefined(const Instruction& inst, absl::string_view why) {
  return absl::FailedPreconditionError(
      absl::StrCat("undefined behavior at '", PrintInstruction(inst), "': ", why));
}

class Machine {
 public:
  Machine(const Function& f, const InterpreterOptions& options)
      : f_(f), options_(options), table_(options.value_table) {}

  absl::StatusOr<ExecutionResult> Run(absl::Span<const int64_t> args) {
    const Block* block = f_.entry();
    if (block == nullptr) return absl::InvalidArgumentError("function has no blocks");
    const size_t size = ValueTableSize(f_);
    if (table_.empty()) {
      own_table_.assign(size, 0);
      table_ = absl::MakeSpan(own_table_);
    } else if (table_.size() < size) {
      return absl::InvalidArgumentError(absl::StrCat("value table of ", table_.size(),
                                                     " words; the function needs ", size));
    } else {
      std::fill(table_.begin(), table_.end(), 0);
    }
    scratch_ = table_.data() + f_.value_id_bound();
    if (args.size() != block->params().size()) {
      return absl::InvalidArgumentError(absl::StrCat("expected ", block->params().size(),
                                                     " arguments, got ", args.size()));
    }
    for (size_t i = 0; i < args.size(); ++i) {
      Set(block->params()[i], args[i]);
    }
    int64_t steps = 0;
    while (true) {
      const Block* next = nullptr;
      for (const Instruction* inst : block->instructions()) {
        if (++steps > options_.max_steps) {
          return absl::ResourceExhaustedError("interpreter step limit reached");
        }
        absl::StatusOr<std::optional<ExecutionResult>> r = Step(*inst, &next);
        if (!r.ok()) return r.status();
        if (r->has_value()) return **r;
        if (next != nullptr) break;
      }
      if (next == nullptr) return absl::InternalError("block fell through without terminator");
      block = next;
    }
  }

 private:
  int64_t Get(const Value* v) const { return table_[v->id()]; }
  void Set(const Value* v, int64_t x) { table_[v->id()] = Normalize(v->type(), x); }

  ExecutionResult Deopt(const FrameState* fs, const std::string& reason,
                        DeoptAction action) const {
    ExecutionResult r;
    r.kind = ExecutionResult::Kind::kDeoptimized;
    r.reason = reason;
    r.action = action;
    r.frames = Frames(fs, &r.objects);
    return r;
  }

  // The frames `fs` and its parents describe, innermost first, and the
  // virtual objects they name (each once, numbered in order of first use).
  std::vector<DeoptFrame> Frames(const FrameState* fs,
                                 std::vector<DeoptObject>* objects = nullptr) const {
    std::vector<DeoptFrame> frames;
    std::vector<DeoptObject> unused;  // lazy frame states name no objects (verifier)
    if (objects == nullptr) objects = &unused;
    VirtualObjectNumbering<DeoptObject> numbering(objects);
    auto number = [&](const VirtualObject* o) {
      return numbering.Number(
          o,
          [&](const VirtualObject::Field& field, int32_t object) {
            return DeoptObject::Field{field.offset, field.type, object >= 0 ? 0 : Get(field.value),
                                      object};
          },
          [&](DeoptObject& out, const VirtualObject& in) {
            out.is_existing = Get(in.existing_if) != 0;
            out.existing = out.is_existing ? Get(in.existing) : 0;
          });
    };
    for (; fs != nullptr; fs = fs->parent) {
      DeoptFrame frame;
      frame.call_target_id = fs->call_target_id;
      frame.resume_point = fs->resume_point;
      auto slot = [&](const ValuePair& p) {
        if (p.is_illegal()) return DeoptFrame::Slot{};
        if (p.object != nullptr) return DeoptFrame::Slot{true, 0, Get(p.tag), number(p.object)};
        return DeoptFrame::Slot{true, Get(p.payload), Get(p.tag)};
      };
      for (const ValuePair& p : fs->locals) frame.locals.push_back(slot(p));
      for (const ValuePair& p : fs->stack) frame.stack.push_back(slot(p));
      frames.push_back(std::move(frame));
    }
    return frames;
  }

  absl::StatusOr<std::optional<ExecutionResult>> Step(const Instruction& inst,
                                                      const Block** next) {
    const auto& ops = inst.operands();
    auto arg = [&](int i) { return Get(ops[i]); };
    switch (inst.opcode()) {
      case Opcode::kIconst:
      case Opcode::kPconst:
        Set(inst.result(), inst.imm());
        return std::nullopt;
      case Opcode::kIcmp:
        Set(inst.result(), EvalCond(inst.cond(), ops[0]->type(), arg(0), arg(1)));
        return std::nullopt;
      case Opcode::kSelect:
        Set(inst.result(), arg(0) != 0 ? arg(1) : arg(2));
        return std::nullopt;
      // As in machine code, an aligned 8-byte access is one access (here a
      // relaxed atomic): compiled code shares such words with other
      // threads (first-tier code's profile counters, validity cells).
      case Opcode::kLoad: {
        int64_t x = 0;
        const char* p = reinterpret_cast<const char*>(arg(0)) + inst.imm();
        const int width = ByteWidth(inst.type_suffix());
        if (width == 8 && reinterpret_cast<uintptr_t>(p) % 8 == 0) {
          x = __atomic_load_n(reinterpret_cast<const int64_t*>(p), __ATOMIC_RELAXED);
        } else {
          std::memcpy(&x, p, width);
        }
        if (inst.type_suffix() == Type::kI32) x = static_cast<int32_t>(x);
        Set(inst.result(), x);
        return std::nullopt;
      }
      case Opcode::kStore: {
        int64_t x = arg(0);
        char* p = reinterpret_cast<char*>(arg(1)) + inst.imm();
        const int width = ByteWidth(inst.type_suffix());
        if (width == 8 && reinterpret_cast<uintptr_t>(p) % 8 == 0) {
          __atomic_store_n(reinterpret_cast<int64_t*>(p), x, __ATOMIC_RELAXED);
        } else {
          std::memcpy(p, &x, width);
        }
        return std::nullopt;
      }
      case Opcode::kCallRuntime:
      case Opcode::kCallTarget: {
        // The arguments are in the table's scratch words, not in a vector of
        // our own, for the caller's collector (InterpreterOptions::value_table).
        for (size_t i = 0; i < ops.size(); ++i) scratch_[i] = Get(ops[i]);
        absl::Span<const int64_t> args(scratch_, ops.size());
        absl::StatusOr<std::vector<int64_t>> results;
        std::vector<DeoptFrame> lazy;
        if (options_.lazy_frames != nullptr) {
          if (inst.frame_state() != nullptr) lazy = Frames(inst.frame_state());
          *options_.lazy_frames = inst.frame_state() != nullptr ? &lazy : nullptr;
        }
        if (inst.opcode() == Opcode::kCallRuntime) {
          if (!options_.call_runtime) return Undefined(inst, "no call_runtime hook");
          results = options_.call_runtime(*inst.callee(), args);
        } else {
          if (!options_.call_target) return Undefined(inst, "no call_target hook");
          results = options_.call_target(inst.imm(), args);
        }
        if (options_.lazy_frames != nullptr) *options_.lazy_frames = nullptr;
        if (!results.ok()) return results.status();
        if (results->size() != inst.results().size()) {
          return absl::InternalError("call hook returned the wrong number of values");
        }
        for (size_t i = 0; i < results->size(); ++i) Set(inst.results()[i], (*results)[i]);
        std::fill(scratch_, scratch_ + ops.size(), 0);
        return std::nullopt;
      }
      case Opcode::kGuard:
        if (arg(0) == 0) return Deopt(inst.frame_state(), inst.reason(), inst.deopt_action());
        return std::nullopt;
      case Opcode::kSafepoint:
        if (options_.safepoint_word != nullptr &&
            options_.safepoint_word->load(std::memory_order_relaxed) != 0) {
          return Deopt(inst.frame_state(), "safepoint", DeoptAction::kKeepCode);
        }
        return std::nullopt;
      case Opcode::kAlloc: {
        if (!options_.allocate) return Undefined(inst, "no allocate hook");
        void* object = options_.allocate(inst.imm());
        if (object == nullptr) return absl::ResourceExhaustedError("allocation failed");
        Set(inst.result(), reinterpret_cast<int64_t>(object));
        return std::nullopt;
      }
      case Opcode::kJump:
      case Opcode::kBr: {
        const BlockCall& t =
            inst.targets()[inst.opcode() == Opcode::kBr && arg(0) == 0 ? 1 : 0];
        // Read all arguments before writing parameters (parallel copy),
        // through the table's scratch words: a value moving from one
        // parameter to another is in the table throughout.
        for (size_t i = 0; i < t.args.size(); ++i) scratch_[i] = Get(t.args[i]);
        for (size_t i = 0; i < t.args.size(); ++i) Set(t.block->params()[i], scratch_[i]);
        std::fill(scratch_, scratch_ + t.args.size(), 0);
        *next = t.block;
        return std::nullopt;
      }
      case Opcode::kReturn: {
        ExecutionResult r;
        for (const Value* v : ops) r.values.push_back(Get(v));
        return r;
      }
      case Opcode::kDeopt:
        return Deopt(inst.frame_state(), inst.reason(), inst.deopt_action());
      case Opcode::kUnreachable:
        return Undefined(inst, "reached unreachable");
      default:
        break;
    }
    const OpcodeInfo& info = inst.info();
    std::optional<int64_t> r;
    if (info.format == OpFormat::kBinary) {
      r = EvalBinary(inst.opcode(), ops[0]->type(), arg(0), arg(1));
    } else if (info.format == OpFormat::kUnary) {
      r = EvalUnary(inst.opcode(), ops[0]->type(), arg(0));
    } else if (info.format == OpFormat::kConvert) {
      r = EvalConvert(inst.opcode(), ops[0]->type(), inst.type_suffix(), arg(0));
    }
    if (!r) return Undefined(inst, "no defined result");
    Set(inst.result(), *r);
    return std::nullopt;
  }

  const Function& f_;
  const InterpreterOptions& options_;
  // SSA values by id, then scratch words (ValueTableSize).
  absl::Span<int64_t> table_;
  std::vector<int64_t> own_table_;  // the table when the caller gives none
  int64_t* scratch_ = nullptr;
};

}  // namespace

size_t ValueTableSize(const Function& function) {
  // Scratch: the most words a call passes or a branch copies at once.
  size_t scratch = 0;
  for (const Block* block : function.blocks()) {
    for (const Instruction* inst : block->instructions()) {
      scratch = std::max(scratch, inst->operands().size());
      for (const BlockCall& target : inst->targets()) {
        scratch = std::max(scratch, target.args.size());
      }
    }
  }
  return function.value_id_bound() + scratch;
}

std::string DebugString(const ExecutionResult& result) {
  if (result.kind == ExecutionResult::Kind::kReturned) {
    return absl::StrCat("returned (", absl::StrJoin(result.values, ", "), ")");
  }
  std::string s = absl::StrCat("deoptimized \"", result.reason, "\"",
                               result.action == DeoptAction::kKeepCode ? " keep_code" : "");
  for (const DeoptFrame& f : result.frames) {
    auto slots = [](const std::vector<DeoptFrame::Slot>& v) {
      return absl::StrJoin(v, ", ", [](std::string* out, const DeoptFrame::Slot& s) {
        if (!s.legal) return absl::StrAppend(out, "illegal");
        absl::StrAppend(out, s.object >= 0 ? absl::StrCat("o", s.object) : absl::StrCat(s.payload),
                        ":", s.tag);
      });
    };
    absl::StrAppend(&s, " [target ", f.call_target_id, " resume ", f.resume_point,
                    " locals (", slots(f.locals), ") stack (", slots(f.stack), ")]");
  }
  for (size_t i = 0; i < result.objects.size(); ++i) {
    absl::StrAppend(
        &s, " o", i, " = object ", result.objects[i].size, " [",
        absl::StrJoin(result.objects[i].fields, ", ",
                      [](std::string* out, const DeoptObject::Field& field) {
                        absl::StrAppend(out, field.offset, ": ", TypeName(field.type), " ",
                                        field.object >= 0 ? absl::StrCat("o", field.object)
                                                          : absl::StrCat(field.bits));
                      }),
        "]",
        result.objects[i].is_existing ? absl::StrCat(" existing ", result.objects[i].existing)
                                      : "");
  }
  return s;
}

absl::StatusOr<ExecutionResult> Interpret(const Function& function,
                                          absl::Span<const int64_t> args,
                                          const InterpreterOptions& options) {
  return Machine(function, options).Run(args);
}

}  // namespace morel::ir
