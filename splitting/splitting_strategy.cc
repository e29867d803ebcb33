#include "splitting/splitting_strategy.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "splitting/event_format.h"

namespace morel::splitting {
namespace {

// TraceSplitting's formatEvent widths (TraceSplittingListener).
constexpr int kEventWidth = 12;
constexpr int kSubjectWidth = 60;

}  // namespace

SplittingStrategy::SplittingStrategy(SplittingOptions options, LogSink* log,
                                     SplitTargetFactory factory)
    : options_(std::move(options)),
      log_(log),
      factory_(std::move(factory)),
      marker_(options_, log) {}

void SplittingStrategy::OnTargetFreed(const CallTarget& target) {
  std::lock_guard<std::mutex> guard(lock_);
  waste_.erase(&target);
}

void SplittingStrategy::OnTargetCreated(CallTarget& target) {
  if (target.is_split()) return;
  if (options_.enabled && options_.force_all) target.set_needs_split(true);
  std::lock_guard<std::mutex> guard(lock_);
  if (options_.enabled) {
    split_limit_ += static_cast<int>(options_.growth_limit *
                                     target.uninitialized_node_count());
  }
  statistics_.total_created_node_count += target.uninitialized_node_count();
}

void SplittingStrategy::OnPolymorphicSpecialize(const Node& source) {
  RootNode* root = source.GetRootNode();
  CallTarget* target = root != nullptr ? root->call_target() : nullptr;
  if (target == nullptr) return;
  {
    std::lock_guard<std::mutex> guard(lock_);
    ++statistics_.polymorphic_nodes_by_class[std::string(source.kind_name().data(),
                                                         source.kind_name().size())];
  }
  // Marking is pointless when nothing will be split.
  if (options_.enabled) marker_.PolymorphicSpecialize(source, *target);
}

bool SplittingStrategy::CanSplit(const DirectCallNode& call) const {
  return !call.IsCallTargetCloned() && options_.enabled &&
         call.IsCallTargetCloningAllowed();
}

bool SplittingStrategy::IsRecursiveSplit(const DirectCallNode& call, int max_depth) {
  const CallTarget* candidate = call.call_target();
  RootNode* root = call.GetRootNode();
  const CallTarget* root_target = root != nullptr ? root->call_target() : nullptr;
  if (root_target == nullptr) return false;
  const CallTarget* source = root_target->source_call_target();
  int depth = 0;
  while (source != nullptr) {
    if (source == candidate && ++depth == max_depth) return true;
    const DirectCallNode* site = root_target->call_site_for_split();
    if (site == nullptr) break;
    RootNode* site_root = site->GetRootNode();
    if (site_root == nullptr) break;
    root_target = site_root->call_target();
    if (root_target == nullptr) break;
    source = root_target->source_call_target();
  }
  return false;
}

std::string SplittingStrategy::CheckSplitLocked(const DirectCallNode& call,
                                                const CallTarget& target) const {
  if (!CanSplit(call)) return "Split not possible.";
  if (IsRecursiveSplit(call, kRecursiveSplitDepth)) return "Recursive split.";
  int size = call.call_target()->uninitialized_node_count();
  if (split_count_ + size >= split_limit_) {
    return absl::StrCat("Not enough budget. ", split_count_ + size, " > ", split_limit_);
  }
  if (target.uninitialized_node_count() > options_.max_callee_size) {
    return absl::StrCat("Target too big: ", target.uninitialized_node_count(), " > ",
                        options_.max_callee_size);
  }
  return "";
}

std::string SplittingStrategy::CheckForcedSplit(const DirectCallNode& call) const {
  if (!CanSplit(call)) return "Split not possible.";
  if (IsRecursiveSplit(call, kRecursiveSplitDepth)) return "Recursive split.";
  return "";
}

CallTarget* SplittingStrategy::BeforeCall(DirectCallNode& call, CallTarget* target) {
  std::string refusal;
  {
    std::lock_guard<std::mutex> guard(lock_);
    if (options_.trace_summary && target->call_count() == 0) {
      statistics_.total_executed_node_count += target->uninitialized_node_count();
    }
    if (!target->needs_split()) return target;
    refusal = options_.force_all ? CheckForcedSplit(call) : CheckSplitLocked(call, *target);
  }
  if (!refusal.empty()) {
    TraceSplitFailed(call, refusal);
    return target;
  }
  CallTarget* split = DoSplit(call, /*forced=*/options_.force_all);
  return split != nullptr ? split : call.current_call_target();
}

bool SplittingStrategy::ForceSplit(DirectCallNode& call) {
  if (!options_.allow_forced_splits) return false;
  if (!CheckForcedSplit(call).empty()) return false;
  return DoSplit(call, /*forced=*/true) != nullptr;
}

CallTarget* SplittingStrategy::DoSplit(DirectCallNode& call, bool forced) {
  CallTarget* source = call.call_target();
  int size = source->uninitialized_node_count();
  {
    std::lock_guard<std::mutex> guard(lock_);
    if (forced) split_count_ += size;  // forceSplitting's own charge
    if (options_.trace_summary) CalculateSplitWasteLocked(*source);
    split_count_ += size;
  }
  std::unique_ptr<RootNode> clone = source->root_node()->CloneUninitialized();
  if (clone == nullptr) {
    std::lock_guard<std::mutex> guard(lock_);
    split_count_ -= forced ? 2 * size : size;
    return nullptr;
  }
  CallTarget* split = factory_(std::move(clone), source);
  RootNode* caller_root = call.GetRootNode();
  {
    // OptimizedDirectCallNode#split runs under the AST lock.
    std::unique_lock<std::recursive_mutex> root_guard;
    if (caller_root != nullptr) root_guard = std::unique_lock(caller_root->lock());
    if (call.IsCallTargetCloned()) return call.current_call_target();  // lost a race
    call.InstallSplit(split);
  }
  // Truffle's dummy replace(this, "Split call node"): nodeReplaced on the
  // caller's target, which invalidates code compiled for it.
  if (caller_root != nullptr && caller_root->call_target() != nullptr) {
    CallTarget* caller = caller_root->call_target();
    caller->runtime()->OnNodeReplaced(*caller, call, call, "Split call node");
  }
  TraceSplit(call);
  {
    std::lock_guard<std::mutex> guard(lock_);
    ++statistics_.split_count;
    if (forced) ++statistics_.forced_split_count;
    statistics_.split_node_count += size;
    ++statistics_.splits_by_target[source->name()];
  }
  return split;
}

void SplittingStrategy::CalculateSplitWasteLocked(CallTarget& target) {
  std::vector<CallTarget*> cloned;
  target.root_node()->ForEachNode([&cloned](Node& node) {
    if (auto* call = dynamic_cast<DirectCallNode*>(&node)) {
      if (call->IsCallTargetCloned()) cloned.push_back(call->current_call_target());
    }
  });
  for (CallTarget* callee : cloned) {
    if (!waste_.insert(callee).second) continue;
    statistics_.wasted_node_count += callee->uninitialized_node_count();
    ++statistics_.wasted_target_count;
    CalculateSplitWasteLocked(*callee);
  }
}

void SplittingStrategy::TraceSplit(const DirectCallNode& call) {
  if (!options_.trace_splitting || log_ == nullptr) return;
  int number;
  {
    std::lock_guard<std::mutex> guard(lock_);
    number = traced_splits_++;
  }
  std::string label =
      absl::StrFormat("split %3d-%d ", number, call.current_call_target()->id());
  std::vector<EventProperty> properties =
      TargetDebugProperties(*call.call_target(), options_);
  properties.push_back({"SourceSection", CallSiteSourceDescription(call)});
  log_->Log(FormatEvent(0, label, kEventWidth, call.call_target()->name(), kSubjectWidth,
                        properties, 0));
}

void SplittingStrategy::TraceSplitFailed(const DirectCallNode& call,
                                         absl::string_view reason) {
  if (!options_.trace_splitting || log_ == nullptr) return;
  std::vector<EventProperty> properties =
      TargetDebugProperties(*call.call_target(), options_);
  properties.push_back({"SourceSection", CallSiteSourceDescription(call)});
  log_->Log(FormatEvent(0, absl::StrCat("split failed ", reason), kEventWidth,
                        call.call_target()->name(), kSubjectWidth, properties, 0));
}

void SplittingStrategy::Close() {
  {
    std::lock_guard<std::mutex> guard(lock_);
    if (closed_) return;
    closed_ = true;
  }
  if (options_.trace_summary && log_ != nullptr) log_->Log(SummaryText());
}

std::string SplittingStrategy::SummaryText() const {
  std::lock_guard<std::mutex> guard(lock_);
  return FormatSplittingSummary(statistics_, split_count_, split_limit_);
}

int SplittingStrategy::split_count() const {
  std::lock_guard<std::mutex> guard(lock_);
  return split_count_;
}

int SplittingStrategy::split_limit() const {
  std::lock_guard<std::mutex> guard(lock_);
  return split_limit_;
}

SplitStatistics SplittingStrategy::statistics() const {
  std::lock_guard<std::mutex> guard(lock_);
  return statistics_;
}

}  // namespace morel::splitting
