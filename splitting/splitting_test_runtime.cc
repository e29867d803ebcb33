#include "splitting/splitting_test_runtime.h"

#include <utility>

#include "nodes/heap.h"

namespace morel::splitting {

TestLogSink::TestLogSink(const std::string& path)
    : file_(path.empty() ? nullptr : std::fopen(path.c_str(), "w")) {}

TestLogSink::~TestLogSink() {
  if (file_ != nullptr) std::fclose(file_);
}

void TestLogSink::Log(absl::string_view message) {
  std::lock_guard<std::mutex> guard(lock_);
  std::FILE* out = file_ != nullptr ? file_ : stderr;
  std::fprintf(out, "[engine] %.*s\n", static_cast<int>(message.size()), message.data());
  std::fflush(out);
}

SplittingTestRuntime::SplittingTestRuntime(const SplittingOptions& options,
                                           const std::string& log_path)
    : log_(log_path) {
  heap::Initialize();
  strategy_ = std::make_unique<SplittingStrategy>(
      options, &log_, [this](std::unique_ptr<RootNode> root, CallTarget* source) {
        auto target = std::make_unique<CallTarget>(std::move(root), this, source);
        CallTarget* raw = target.get();
        std::lock_guard<std::mutex> guard(lock_);
        targets_.push_back(std::move(target));
        splits_.push_back(raw);
        return raw;
      });
}

SplittingTestRuntime::~SplittingTestRuntime() {
  strategy_->Close();
  std::lock_guard<std::mutex> guard(lock_);
  while (!targets_.empty()) targets_.pop_back();
}

CallTarget* SplittingTestRuntime::CreateCallTarget(std::unique_ptr<RootNode> root) {
  auto target = std::make_unique<CallTarget>(std::move(root), this);
  CallTarget* raw = target.get();
  {
    std::lock_guard<std::mutex> guard(lock_);
    targets_.push_back(std::move(target));
  }
  strategy_->OnTargetCreated(*raw);
  return raw;
}

void SplittingTestRuntime::OnPolymorphicSpecialize(Node& source) {
  strategy_->OnPolymorphicSpecialize(source);
}

CallTarget* SplittingTestRuntime::BeforeDirectCall(DirectCallNode& call,
                                                   CallTarget* target) {
  return strategy_->BeforeCall(call, target);
}

bool SplittingTestRuntime::ForceSplit(DirectCallNode& call) {
  return strategy_->ForceSplit(call);
}

void SplittingTestRuntime::OnNodeReplaced(CallTarget& target, Node& old_node, Node&,
                                          absl::string_view reason) {
  std::lock_guard<std::mutex> guard(lock_);
  notifications_.push_back({&target, &old_node, std::string(reason)});
}

std::vector<CallTarget*> SplittingTestRuntime::split_targets() const {
  std::lock_guard<std::mutex> guard(lock_);
  return splits_;
}

std::vector<SplittingTestRuntime::Notification> SplittingTestRuntime::notifications()
    const {
  std::lock_guard<std::mutex> guard(lock_);
  return notifications_;
}

}  // namespace morel::splitting
