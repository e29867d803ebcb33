#include "engine/runtime/engine.h"

#include "nodes/heap.h"
#include "nodes/node.h"

namespace morel::runtime {

absl::StatusOr<std::unique_ptr<Engine>> Engine::Create(
    config::EngineConfig config) {
  absl::StatusOr<std::unique_ptr<EngineLog>> log = EngineLog::Open(config.log());
  if (!log.ok()) return log.status();
  heap::Initialize();
  return std::unique_ptr<Engine>(new Engine(std::move(config), *std::move(log)));
}

Engine::Engine(config::EngineConfig config, std::unique_ptr<EngineLog> log)
    : config_(std::move(config)), log_(std::move(log)) {
  splitting_ = std::make_unique<splitting::SplittingStrategy>(
      splitting::SplittingOptions::FromConfig(config_), log_.get(),
      [this](std::unique_ptr<RootNode> root, CallTarget* source) {
        auto target = std::make_unique<CallTarget>(std::move(root), this, source);
        CallTarget* raw = target.get();
        std::lock_guard<std::mutex> guard(lock_);
        call_targets_.push_back(std::move(target));
        return raw;
      });
}

void Engine::Close() { splitting_->Close(); }

Engine::~Engine() {
  Close();
  // Call targets reference each other through call nodes; destroy them
  // while every target is still alive, newest first.
  std::lock_guard<std::mutex> guard(lock_);
  while (!call_targets_.empty()) call_targets_.pop_back();
}

CallTarget* Engine::CreateCallTarget(std::unique_ptr<RootNode> root) {
  auto target = std::make_unique<CallTarget>(std::move(root), this);
  CallTarget* raw = target.get();
  {
    std::lock_guard<std::mutex> guard(lock_);
    call_targets_.push_back(std::move(target));
  }
  splitting_->OnTargetCreated(*raw);
  return raw;
}

void Engine::OnPolymorphicSpecialize(Node& source) {
  {
    std::lock_guard<std::mutex> guard(lock_);
    ++reports_by_class_[std::string(source.kind_name())];
    ++report_count_;
  }
  splitting_->OnPolymorphicSpecialize(source);
}

CallTarget* Engine::BeforeDirectCall(DirectCallNode& call, CallTarget* target) {
  return splitting_->BeforeCall(call, target);
}

bool Engine::ForceSplit(DirectCallNode& call) { return splitting_->ForceSplit(call); }

std::map<std::string, int> Engine::PolymorphicReportsByNodeClass() const {
  std::lock_guard<std::mutex> guard(lock_);
  return reports_by_class_;
}

int Engine::polymorphic_report_count() const {
  std::lock_guard<std::mutex> guard(lock_);
  return report_count_;
}

std::vector<CallTarget*> Engine::call_targets() const {
  std::lock_guard<std::mutex> guard(lock_);
  std::vector<CallTarget*> targets;
  for (const auto& target : call_targets_) targets.push_back(target.get());
  return targets;
}

}  // namespace morel::runtime
