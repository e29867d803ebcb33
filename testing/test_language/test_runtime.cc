#include "testing/test_language/test_runtime.h"

#include "nodes/heap.h"
#include "nodes/root_node.h"

namespace morel::test_language {

TestRuntime::TestRuntime() { heap::Initialize(); }

TestRuntime::~TestRuntime() {
  // Newest first: a target's call nodes may point at older targets.
  while (!targets_.empty()) targets_.pop_back();
}

CallTarget* TestRuntime::CreateCallTarget(std::unique_ptr<RootNode> root) {
  auto target = std::make_unique<CallTarget>(std::move(root), this);
  CallTarget* raw = target.get();
  std::lock_guard<std::mutex> guard(lock_);
  targets_.push_back(std::move(target));
  return raw;
}

CallTarget* TestRuntime::CreateSplit(CallTarget* source) {
  std::unique_ptr<RootNode> clone = source->root_node()->CloneUninitialized();
  if (clone == nullptr) return nullptr;
  auto target = std::make_unique<CallTarget>(std::move(clone), this, source);
  CallTarget* raw = target.get();
  std::lock_guard<std::mutex> guard(lock_);
  targets_.push_back(std::move(target));
  return raw;
}

void TestRuntime::OnPolymorphicSpecialize(Node& source) {
  std::lock_guard<std::mutex> guard(lock_);
  reports_.emplace_back(source.kind_name());
  report_sources_.push_back(&source);
}

void TestRuntime::OnDirectCallNodeCreated(DirectCallNode&) {
  std::lock_guard<std::mutex> guard(lock_);
  ++direct_call_nodes_created_;
}

CallTarget* TestRuntime::BeforeDirectCall(DirectCallNode& call, CallTarget* target) {
  {
    std::lock_guard<std::mutex> guard(lock_);
    consultations_.push_back({&call, target});
  }
  if (!split_on_call_ || target->is_split() || !call.IsCallTargetCloningAllowed()) {
    return target;
  }
  CallTarget* split = CreateSplit(target);
  if (split == nullptr) return target;
  // InstallSplit's contract: under the caller's root lock.
  std::unique_lock<std::recursive_mutex> root_guard;
  if (RootNode* caller = call.GetRootNode()) root_guard = std::unique_lock(caller->lock());
  call.InstallSplit(split);
  return split;
}

void TestRuntime::OnNodeReplaced(CallTarget& target, Node& old_node, Node& new_node,
                                 absl::string_view reason) {
  std::lock_guard<std::mutex> guard(lock_);
  replacements_.push_back({&target, std::string(old_node.kind_name()),
                           std::string(new_node.kind_name()), std::string(reason)});
}

void TestRuntime::OnLoopCount(CallTarget& target, int iterations) {
  std::lock_guard<std::mutex> guard(lock_);
  loop_reports_.push_back({&target, iterations});
}

std::vector<std::string> TestRuntime::polymorphic_reports() const {
  std::lock_guard<std::mutex> guard(lock_);
  return reports_;
}

std::vector<Node*> TestRuntime::polymorphic_report_sources() const {
  std::lock_guard<std::mutex> guard(lock_);
  return report_sources_;
}

int TestRuntime::polymorphic_report_count() const {
  std::lock_guard<std::mutex> guard(lock_);
  return static_cast<int>(reports_.size());
}

std::vector<TestRuntime::Replacement> TestRuntime::replacements() const {
  std::lock_guard<std::mutex> guard(lock_);
  return replacements_;
}

std::vector<TestRuntime::LoopReport> TestRuntime::loop_reports() const {
  std::lock_guard<std::mutex> guard(lock_);
  return loop_reports_;
}

std::vector<TestRuntime::DirectCallConsultation> TestRuntime::direct_call_consultations()
    const {
  std::lock_guard<std::mutex> guard(lock_);
  return consultations_;
}

int TestRuntime::direct_call_nodes_created() const {
  std::lock_guard<std::mutex> guard(lock_);
  return direct_call_nodes_created_;
}

void TestRuntime::ClearEvents() {
  std::lock_guard<std::mutex> guard(lock_);
  reports_.clear();
  report_sources_.clear();
  replacements_.clear();
  loop_reports_.clear();
  consultations_.clear();
}

}  // namespace morel::test_language
