#ifndef MOREL_ENGINE_OPT_REWRITE_UTIL_H_
#define MOREL_ENGINE_OPT_REWRITE_UTIL_H_

// Small helpers shared by the passes.

#include <cstdint>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "engine/ir/function.h"

namespace morel::opt {

// The value of an iconst/pconst, else nullopt.
inline std::optional<int64_t> ConstantOf(const ir::Value* v) {
  const ir::Instruction* inst = v->instruction();
  if (inst == nullptr) return std::nullopt;
  if (inst->opcode() == ir::Opcode::kIconst || inst->opcode() == ir::Opcode::kPconst) {
    return inst->imm();
  }
  return std::nullopt;
}

// A pending replacement of values, applied at once at the end of a pass
// (Function::ReplaceUses) so each replacement is O(1) during the pass.
class Substitution {
 public:
  void Replace(ir::Value* from, ir::Value* to) { map_[from] = Resolve(to); }
  ir::Value* Resolve(ir::Value* v) const {
    for (auto it = map_.find(v); it != map_.end(); it = map_.find(v)) v = it->second;
    return v;
  }
  // Resolves the operands of `inst` in place.
  void ResolveOperands(ir::Instruction* inst) const {
    if (map_.empty()) return;
    for (ir::Value*& v : inst->mutable_operands()) v = Resolve(v);
  }
  bool empty() const { return map_.empty(); }
  void ApplyTo(ir::Function& f) {
    f.ReplaceUses(map_);
    map_.clear();
  }

 private:
  absl::flat_hash_map<ir::Value*, ir::Value*> map_;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_REWRITE_UTIL_H_
