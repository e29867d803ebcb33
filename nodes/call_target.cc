#include "nodes/call_target.h"

#include <alloca.h>
#include <pthread.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "nodes/guest_error.h"
#include "nodes/node_runtime.h"
#include "nodes/stack_limit.h"

namespace morel {
namespace {

std::atomic<int64_t> next_call_target_id{1};

DirectCallNode* const kMultipleCallers = reinterpret_cast<DirectCallNode*>(1);

}  // namespace

CallTarget::CallTarget(std::unique_ptr<RootNode> root, NodeRuntime* runtime,
                       CallTarget* source)
    : holder_token_(std::make_shared<Token>(this)),
      root_(std::move(root)),
      runtime_(runtime),
      source_(source),
      source_token_(source != nullptr ? source->HolderToken() : nullptr),
      id_(next_call_target_id.fetch_add(1)) {
  root_->AdoptChildren();
  root_->set_call_target(this, runtime_);
  name_ = source_ == nullptr ? root_->name()
                             : absl::StrCat(root_->name(), " <split-", id_, ">");
  int size = root_->ComputeSize();
  uninitialized_node_count_ = size > 0 ? size : root_->CountNodes();
}

CallTarget::~CallTarget() {
  // Before the tree dies: its call nodes (and those of trees destroyed
  // later) see that this target is gone.
  holder_token_->target_.store(nullptr, std::memory_order_release);
}


[[noreturn]] void NodeRuntime::OnStackFramesExceeded(const CallTarget& target) {
  throw ResourceLimitError(
      absl::StrCat("Maximum frame limit of ", max_stack_frames_, " exceeded (calling ",
                   target.name(), ")."));
}

void NodeRuntime::NoteNewGuestThread(const void* thread) {
  const void* none = nullptr;
  if (guest_thread_.compare_exchange_strong(none, thread, std::memory_order_relaxed)) return;
  if (none != thread) guest_code_on_several_threads_.store(true, std::memory_order_relaxed);
}

bool NodeRuntime::IsOnlyGuestThread() const {
  if (guest_code_on_several_threads_.load(std::memory_order_relaxed)) return false;
  const void* thread = guest_thread_.load(std::memory_order_relaxed);
  return thread == nullptr || thread == StackLimit::ThreadToken();
}

MOREL_NO_STACK_PROTECTOR Value CallTarget::Call(absl::Span<const Value> arguments) {
  if (StackLimit::IsExceeded()) ThrowStackOverflow();
  runtime_->NoteGuestThread(StackLimit::ThreadToken());
  if (runtime_->SafepointRequested()) [[unlikely]] runtime_->OnSafepoint();
  if (runtime_->max_stack_frames() > 0) [[unlikely]] return CallCountingFrames(arguments);
  return CallUnchecked(arguments);
}

Value CallTarget::CallCountingFrames(absl::Span<const Value> arguments) {
  if (stack_frames_ >= runtime_->max_stack_frames()) runtime_->OnStackFramesExceeded(*this);
  struct Count {
    Count() { ++stack_frames_; }
    ~Count() { --stack_frames_; }
  } count;
  return CallUnchecked(arguments);
}

Value CallTarget::CallUnchecked(absl::Span<const Value> arguments) {
  InstalledCode* code = installed_code();
  if (code == nullptr && !CountCallBelowThreshold()) {
    // An interpreter call (installed code counts for itself, if at all)
    // that reaches the threshold.
    IncrementCallCount();
    runtime_->OnCompilationThreshold(*this);
    code = installed_code();
  }
  if (code != nullptr) return code->Invoke(*this, arguments);
  return RunRootInInterpreter(arguments);
}

void CallTarget::ThrowStackOverflow() const {
  std::string where;
  if (const SourceSection* section = root_->EncapsulatingSourceSection()) {
    where = absl::StrCat(" (defined at ", section->source->name(), " line ",
                         section->line, " col ", section->column, ")");
  }
  throw StackOverflowError(
      absl::StrCat("Stack overflow: recursion too deep in ", root_->name(), where));
}

void CallTarget::AddLoopCount(int iterations) {
  if (iterations > 0) SaturatingAdd(call_and_loop_count_, iterations);
}

void CallTarget::AddDirectCallNode(DirectCallNode* call) {
  std::lock_guard<std::mutex> guard(callers_lock_);
  if (single_caller_ == call) return;
  single_caller_ = single_caller_ == nullptr ? call : kMultipleCallers;
  ++call_sites_known_;
}

void CallTarget::RemoveDirectCallNode(DirectCallNode* call) {
  std::lock_guard<std::mutex> guard(callers_lock_);
  if (call_sites_known_ > 0) --call_sites_known_;
  if (single_caller_ == call) single_caller_ = nullptr;
}

int CallTarget::call_sites_known() const {
  std::lock_guard<std::mutex> guard(callers_lock_);
  return call_sites_known_;
}

DirectCallNode* CallTarget::single_call_node() const {
  std::lock_guard<std::mutex> guard(callers_lock_);
  return single_caller_ == kMultipleCallers ? nullptr : single_caller_;
}

}  // namespace morel
