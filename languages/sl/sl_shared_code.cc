#include "languages/sl/sl_shared_code.h"

#include "base/check.h"
#include "languages/sl/builtins.h"
#include "languages/sl/node_builder.h"
#include "languages/sl/parser/parser.h"
#include "languages/sl/root_nodes.h"
#include "nodes/source.h"

namespace morel::sl {

SLSharedCode::SLSharedCode(runtime::Engine &engine) : engine_(engine) {
  for (const BuiltinSpec &builtin : Builtins()) {
    builtin_targets_.push_back(engine_.CreateCallTarget(
        std::make_unique<SLBuiltinRootNode>(builtin, /*context=*/nullptr)));
  }
}

SLSharedCode::~SLSharedCode() {
  engine_.WaitForCompilations();
  for (auto &[key, unit] : units_) {
    for (auto &[name, target] : unit.functions) engine_.RetireCallTarget(*target);
  }
  for (CallTarget *target : builtin_targets_) engine_.RetireCallTarget(*target);
}

absl::StatusOr<SLSharedCode::Unit *> SLSharedCode::Load(absl::string_view text,
                                                        absl::string_view source_name) {
  std::pair<std::string, std::string> key(source_name, text);
  if (auto it = units_.find(key); it != units_.end()) {
    return &it->second;
  }
  absl::StatusOr<std::unique_ptr<ast::Program>> parsed = ParseProgram(text, source_name);
  if (!parsed.ok()) return parsed.status();
  std::shared_ptr<const ast::Program> program = *std::move(parsed);
  auto source = std::make_shared<const Source>(std::string(source_name), std::string(text));
  auto [it, inserted] = units_.try_emplace(std::move(key));
  MOREL_CHECK(inserted);
  Unit *unit = &it->second;
  unit->key = &it->first;
  FunctionBinding binding;
  binding.shared_ids = &function_ids_;
  binding.bytecode = use_bytecode_;
  for (size_t i = 0; i < program->functions.size(); ++i) {
    CallTarget *target =
        engine_.CreateCallTarget(BuildFunctionRoot(binding, program, source, static_cast<int>(i)));
    unit->functions.emplace_back(program->functions[i].name, target);
    unit_of_target_[target] = unit;
  }
  return unit;
}

void SLSharedCode::Acquire(const CallTarget *target) {
  if (target == nullptr) return;
  auto it = unit_of_target_.find(target);
  if (it != unit_of_target_.end()) ++it->second->users;
}

void SLSharedCode::Release(const CallTarget *target) {
  if (target == nullptr) return;
  auto it = unit_of_target_.find(target);
  if (it == unit_of_target_.end()) return;
  Unit *unit = it->second;
  MOREL_CHECK(unit->users > 0);
  if (--unit->users == 0) Evict(unit);
}

void SLSharedCode::EvictIfUnused(Unit *unit) {
  if (unit->users == 0) Evict(unit);
}

void SLSharedCode::Evict(Unit *unit) {
  // Retired, not freed: activations, call nodes and compiled code that
  // still name a target keep it (Engine::RetireCallTarget).
  for (auto &[name, target] : unit->functions) {
    unit_of_target_.erase(target);
    engine_.RetireCallTarget(*target);
  }
  auto it = units_.find(*unit->key);
  MOREL_CHECK(it != units_.end() && &it->second == unit);
  units_.erase(it);  // destroys *unit
}

}  // namespace morel::sl
