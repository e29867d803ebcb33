#include "osr/bytecode_osr_policy.h"

#include <alloca.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "nodes/node.h"
#include "osr/bytecode_osr_root_node.h"

namespace morel::osr {

// The OSR state of one BytecodeOSRNode (Truffle's BytecodeOSRMetadata; the
// back-edge count is the node's). Guarded by the policy's mutex, except
// `policy`, `node` and `root`, which never change.
class BytecodeOsrPolicy::Metadata final : public BytecodeOSRMetadata {
 public:
  Metadata(const BytecodeOsrPolicy* policy, BytecodeOSRNode* node, RootNode* root)
      : policy(policy), node(node), root(root) {}

  struct EntryState {
    CallTarget* target = nullptr;  // once created
    bool creating = false;         // a thread is creating `target`
    bool requested = false;        // compiled at least once (later ones count)
  };

  const BytecodeOsrPolicy* const policy;
  BytecodeOSRNode* const node;
  RootNode* const root;
  std::map<int, EntryState> entries;  // by target bci; never erased
  bool hot = false;                   // Truffle's stage HOT: a request was made
  bool disabled = false;              // stage DISABLED
  CallTarget* in_flight = nullptr;    // the method's compilation in flight
  bool requesting = false;            // a thread is in Request
  int reattempts = 0;
};

BytecodeOsrPolicy::BytecodeOsrPolicy(const OsrOptions& options, OsrHost* host, LogSink* log)
    : options_(options), host_(host), log_(log) {}

BytecodeOsrPolicy::~BytecodeOsrPolicy() = default;

int64_t BytecodeOsrPolicy::threshold() const {
  return options_.always_osr ? 0 : std::max(0, options_.compilation_threshold);
}

int64_t BytecodeOsrPolicy::NextPollAfter(int64_t count) const {
  const int64_t interval = options_.always_osr ? 1 : BytecodeOSRNode::kPollInterval;
  const int64_t next = (std::max<int64_t>(count, 0) / interval + 1) * interval;
  const int64_t first = (threshold() + interval - 1) / interval * interval;
  return std::max(next, first);
}

void BytecodeOsrPolicy::ResetCounter(BytecodeOSRNode& node) const {
  node.SetOSRBackEdgeCount(threshold(), NextPollAfter(threshold()));
}

BytecodeOsrPolicy::Metadata* BytecodeOsrPolicy::MetadataOf(const BytecodeOSRNode& node) const {
  auto* metadata = dynamic_cast<Metadata*>(node.GetOSRMetadata());
  return metadata != nullptr && metadata->policy == this ? metadata : nullptr;
}

bool BytecodeOsrPolicy::OnPoll(BytecodeOSRNode& node, int64_t previous, int64_t count) {
  Metadata* metadata = MetadataOf(node);
  // Once the metadata exists, the node calls here only when its count
  // reached the next poll this policy set: a poll is due (also when other
  // activations' batches moved the count past it meanwhile).
  bool due = metadata != nullptr;
  if (metadata == nullptr) {
    RootNode* root = node.AsNode().GetRootNode();
    const bool off = node.GetOSRMetadata() != nullptr  // disabled, or another runtime's
                     || !options_.enabled || !host_->CompilationEnabled() || root == nullptr;
    if (off) {
      if (node.GetOSRMetadata() == nullptr) node.SetOSRMetadata(BytecodeOSRMetadata::Disabled());
      node.SetOSRNextPoll(BytecodeOSRNode::kNeverPoll);
      return false;
    }
    // Lazily, once (Truffle: double-checked under the node's lock).
    std::lock_guard<std::mutex> guard(mutex_);
    metadata = MetadataOf(node);
    if (metadata == nullptr) {
      metadata_.push_back(std::make_unique<Metadata>(this, &node, root));
      metadata = metadata_.back().get();
      node.SetOSRMetadata(metadata);
    }
  }
  {
    std::lock_guard<std::mutex> guard(mutex_);
    if (metadata->disabled) {
      node.SetOSRNextPoll(BytecodeOSRNode::kNeverPoll);
      return false;
    }
  }
  // The first time: due when a multiple of the interval at or above the
  // threshold is in (previous, count] (Truffle's poll, also for a batch).
  due = due || NextPollAfter(previous) <= count;
  node.SetOSRNextPoll(NextPollAfter(count));
  return due;
}

std::optional<Value> BytecodeOsrPolicy::TryOSR(BytecodeOSRNode& node, int target_bci,
                                               int64_t interpreter_state,
                                               absl::FunctionRef<void()> before_transfer,
                                               Frame& parent_frame) {
  Metadata* metadata = MetadataOf(node);
  if (metadata == nullptr || host_->Closed()) return std::nullopt;
  CallTarget* target;
  bool create = false;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    if (metadata->disabled) return std::nullopt;
    Metadata::EntryState& entry = metadata->entries[target_bci];
    target = entry.target;
    if (target == nullptr) {
      // The first thread creates the target; others keep interpreting.
      if (entry.creating) return std::nullopt;
      entry.creating = true;
      create = true;
    }
  }
  if (create) {
    try {
      target = host_->CreateOsrTarget(std::make_unique<BytecodeOsrRootNode>(
          &node, metadata->root, target_bci, interpreter_state));
    } catch (...) {
      std::lock_guard<std::mutex> guard(mutex_);
      metadata->entries[target_bci].creating = false;
      throw;
    }
    // Truffle seeds the OSR target's callAndLoopCount with the function's:
    // the compile queue ranks the request by it (compile_queue.h).
    if (const CallTarget* function = metadata->root->call_target(); function != nullptr) {
      target->AddLoopCount(function->call_and_loop_count());
    }
    bool first_request;
    {
      std::lock_guard<std::mutex> guard(mutex_);
      Metadata::EntryState& entry = metadata->entries[target_bci];
      entry.target = target;
      entry.creating = false;
      first_request = !metadata->hot;
      metadata->hot = true;
    }
    // The method's first OSR request goes through without conditions.
    if (first_request) Request(node, *metadata, target_bci, *target, parent_frame);
  }
  InstalledCode* code = target->installed_code();
  if (code == nullptr) {
    switch (host_->OsrCompilationState(*target)) {
      case OsrHost::CompilationState::kCompiling:
        // Keep interpreting; the poll's back edges count for the target, so
        // its queued compilation rises in the queue (Truffle's
        // onLoopCount(1024) on the OSR target).
        target->AddLoopCount(BytecodeOSRNode::kPollInterval);
        return std::nullopt;
      case OsrHost::CompilationState::kFailed:
        Disable(node, *metadata, *target, "OSR compilation failed");
        return std::nullopt;
      case OsrHost::CompilationState::kIdle:
        // No code (never compiled here, deoptimized, invalidated): again
        // only at the secondary threshold.
        if (node.osr_back_edge_count() >= 2 * threshold()) {
          Request(node, *metadata, target_bci, *target, parent_frame);
        }
        break;
    }
    code = target->installed_code();
    if (code == nullptr) return std::nullopt;
  }
  return RunOnOsrFrame(node, target_bci, *target, *code, before_transfer, parent_frame);
}

void BytecodeOsrPolicy::Request(BytecodeOSRNode& node, Metadata& metadata, int bci,
                                CallTarget& target, const Frame& frame) {
  // One OSR compilation per method at a time, across its entries (Truffle's
  // compare-and-swap of a placeholder): a thread claims the method's
  // request slot, then asks the host whether the compilation in flight is
  // still running; a request meanwhile, or one while it runs, only resets
  // the counter.
  CallTarget* busy;
  bool claimed = false;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    if (metadata.disabled) return;
    if (!metadata.requesting) {
      metadata.requesting = true;
      claimed = true;
    }
    busy = metadata.in_flight;
  }
  if (!claimed) {
    ResetCounter(node);
    return;
  }
  struct Release {
    BytecodeOsrPolicy& policy;
    Metadata& metadata;
    ~Release() {
      std::lock_guard<std::mutex> guard(policy.mutex_);
      metadata.requesting = false;
    }
  } release{*this, metadata};
  if (busy != nullptr && busy != &target &&
      host_->OsrCompilationState(*busy) == OsrHost::CompilationState::kCompiling) {
    ResetCounter(node);
    return;
  }
  std::string disabled_reason;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    if (metadata.disabled) return;
    Metadata::EntryState& entry = metadata.entries[bci];
    // The first compilation of an entry is free; the later ones of all
    // entries count together.
    if (entry.requested && ++metadata.reattempts > options_.max_compilation_re_attempts) {
      disabled_reason = absl::StrCat("Max OSR compilation re-attempts reached (",
                                     options_.max_compilation_re_attempts, ")");
    } else {
      entry.requested = true;
      metadata.in_flight = &target;
    }
  }
  if (!disabled_reason.empty()) {
    Disable(node, metadata, target, disabled_reason);
    return;
  }
  try {
    node.PrepareOSR(bci);
    // Truffle's updateFrameSlots. The host made `target` of TryOSR's
    // BytecodeOsrRootNode.
    static_cast<BytecodeOsrRootNode*>(target.root_node())->entry_tags().Record(frame);
    host_->RequestOsrCompilation(target);  // queued, or compiled now
  } catch (...) {
    // Truffle: an exception while requesting disables OSR and propagates.
    Disable(node, metadata, target, "exception while requesting the OSR compilation");
    throw;
  }
  ResetCounter(node);
}

Value BytecodeOsrPolicy::RunOnOsrFrame(BytecodeOSRNode& node, int bci, CallTarget& target,
                                       InstalledCode& code,
                                       absl::FunctionRef<void()> before_transfer, Frame& parent) {
  before_transfer();
  RootNode* root = parent.root();
  const int size =
      root != nullptr ? root->frame_storage_size() : parent.descriptor().size() + 1;
  // On the native stack, as CallTarget::Call's frames: the collector scans it.
  auto* slots = static_cast<Value*>(alloca(sizeof(Value) * size));
  std::fill_n(slots, size, Value::Illegal());
  Frame osr_frame(&parent.descriptor(), slots, parent.arguments(), root, parent.caller());
  node.CopyIntoOSRFrame(osr_frame, parent, bci);
  Value result;
  // Copied back however the code leaves (Truffle's finally).
  try {
    // The OSR frame stands for the activation while the code runs.
    FrameScope scope(&osr_frame);
    result = host_->RunBytecodeOsrCode(target, code, osr_frame);
  } catch (...) {
    node.RestoreParentFrame(osr_frame, parent);
    throw;
  }
  node.RestoreParentFrame(osr_frame, parent);
  return result;
}

void BytecodeOsrPolicy::Disable(BytecodeOSRNode& node, Metadata& metadata,
                                const CallTarget& target, const std::string& reason) {
  {
    std::lock_guard<std::mutex> guard(mutex_);
    if (metadata.disabled) return;  // traced once
    metadata.disabled = true;
    metadata.reattempts = 0;
    metadata.in_flight = nullptr;
  }
  node.SetOSRNextPoll(BytecodeOSRNode::kNeverPoll);
  if (options_.trace_compilation && log_ != nullptr) {
    log_->Log(absl::StrCat("opt osr disabled ", host_->TraceName(target), "|Reason ", reason));
  }
}

std::vector<BytecodeOsrPolicy::Entry> BytecodeOsrPolicy::Entries() const {
  std::lock_guard<std::mutex> guard(mutex_);
  std::vector<Entry> entries;
  for (const std::unique_ptr<Metadata>& metadata : metadata_) {
    for (const auto& [bci, state] : metadata->entries) {
      if (state.target != nullptr) {
        entries.push_back(Entry{metadata->node, metadata->root, bci, state.target});
      }
    }
  }
  return entries;
}

bool BytecodeOsrPolicy::IsDisabled(const BytecodeOSRNode& node) const {
  if (node.GetOSRMetadata() == BytecodeOSRMetadata::Disabled()) return true;
  const Metadata* metadata = MetadataOf(node);
  if (metadata == nullptr) return false;
  std::lock_guard<std::mutex> guard(mutex_);
  return metadata->disabled;
}

int BytecodeOsrPolicy::ReAttempts(const BytecodeOSRNode& node) const {
  const Metadata* metadata = MetadataOf(node);
  if (metadata == nullptr) return 0;
  std::lock_guard<std::mutex> guard(mutex_);
  return metadata->reattempts;
}

}  // namespace morel::osr
