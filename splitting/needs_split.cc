#include "splitting/needs_split.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nodes/call_nodes.h"
#include "nodes/root_node.h"

namespace morel::splitting {

std::string NodeDescription(const Node& node) {
  return absl::StrFormat("%s@%x", std::string(node.kind_name().data(), node.kind_name().size()),
                         reinterpret_cast<uintptr_t>(&node));
}

NeedsSplitMarker::NeedsSplitMarker(const SplittingOptions& options, LogSink* log)
    : options_(options), log_(log) {}

void NeedsSplitMarker::PolymorphicSpecialize(const Node& source, CallTarget& target) {
  std::lock_guard<std::mutex> guard(lock_);
  std::optional<DecisionChain> chain;
  if (options_.dump_decisions) {
    chain.emplace();
    chain->source = &source;
    chain->AddParentChain(&source);
  }
  LogEvent(0, target, "Polymorphic event! Source:", NodeDescription(source));
  MaybeSetNeedsSplit(target, 0, chain.has_value() ? &*chain : nullptr);
}

bool NeedsSplitMarker::MaybeSetNeedsSplit(CallTarget& target, int depth,
                                          DecisionChain* chain) {
  DirectCallNode* only_caller = target.single_call_node();
  int known_callers = target.call_sites_known();
  if (depth > options_.max_propagation_depth || target.needs_split() ||
      known_callers == 0 || target.call_count() == 1) {
    if (options_.trace_events) {
      LogEvent(depth, target,
               absl::StrCat("Early return: ", target.needs_split() ? "true" : "false",
                            " callCount: ", target.call_count(),
                            ", numberOfKnownCallNodes: ", known_callers));
    }
    return target.needs_split();
  }
  if (only_caller != nullptr) {
    RootNode* caller_root = only_caller->GetRootNode();
    if (caller_root != nullptr && caller_root->call_target() != nullptr) {
      if (chain != nullptr) chain->AddParentChain(only_caller);
      LogEvent(depth, target, "One caller! Analysing parent.");
      if (MaybeSetNeedsSplit(*caller_root->call_target(), depth + 1, chain)) {
        LogEvent(depth, target, "Set needs split to true via parent");
        target.set_needs_split(true);
      }
    }
  } else {
    LogEvent(depth, target, "Set needs split to true");
    target.set_needs_split(true);
    if (chain != nullptr) Dump(*chain, target);
  }
  LogEvent(depth, target, "Return:", target.needs_split() ? "true" : "false");
  return target.needs_split();
}

void NeedsSplitMarker::LogEvent(int depth, const CallTarget& target,
                                absl::string_view message,
                                std::optional<std::string> argument) {
  if (!options_.trace_events || log_ == nullptr) return;
  std::string text = absl::StrCat(std::string(2 * depth, ' '), message,
                                  argument.has_value() ? " " : "", argument.value_or(""));
  log_->Log(absl::StrFormat("[poly-event] %-70s %s", text, target.name()));
}

void NeedsSplitMarker::Dump(DecisionChain& chain, const CallTarget& marked) {
  chain.marked = &marked;
  absl::StatusOr<std::string> path = WriteDecisionDump(
      chain, options_.dump_directory, static_cast<int>(dump_files_.size()) + 1);
  if (!path.ok()) {
    if (log_ != nullptr) log_->Log(path.status().message());
    return;
  }
  dump_files_.push_back(*path);
}

std::vector<std::string> NeedsSplitMarker::dump_files() const {
  std::lock_guard<std::mutex> guard(lock_);
  return dump_files_;
}

}  // namespace morel::splitting
