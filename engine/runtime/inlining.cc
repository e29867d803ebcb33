#include "engine/runtime/inlining.h"

#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "engine/opt/dce.h"
#include "engine/opt/pass.h"
#include "nodes/call_nodes.h"
#include "nodes/root_node.h"

namespace morel::runtime {
namespace {

// The original of a split copy: split copies of one target are the same
// function for recursion depth (Truffle's isSameOrSplit).
const CallTarget* Family(const CallTarget* target) {
  while (target->source_call_target() != nullptr) target = target->source_call_target();
  return target;
}

// What the call tree is told about call sites and their callees. One per
// compilation: a callee's "Truffle Callees" (a walk of its whole tree) is
// counted once, not at each of its call sites in each explored graph.
class CallSites {
 public:
  // The callee's part of a call site (the root's whole description).
  inliner::CallSite OfTarget(CallTarget& target) {
    inliner::CallSite site;
    site.target = &target;
    site.target_family = Family(&target);
    site.name = target.name();
    site.target_call_count = target.call_count();
    site.truffle_callees = TruffleCallees(target);
    site.known_call_site_count = target.call_sites_known();
    site.trivial = target.root_node()->IsTrivial();
    return site;
  }
  // A direct call of `callee` through `call`.
  inliner::CallSite OfCall(DirectCallNode& call, CallTarget& callee) {
    inliner::CallSite site = OfTarget(callee);
    site.key = &call;
    site.call_count = call.call_count();
    site.forced = call.is_inlining_forced();
    return site;
  }
  // An indirect call (traced as Truffle does, "<indirect>").
  static inliner::CallSite Indirect() {
    inliner::CallSite site;
    site.indirect = true;
    return site;
  }

 private:
  // Direct call nodes in the target's tree.
  int TruffleCallees(CallTarget& target) {
    // Not a structured binding: clang 14 cannot capture one in a lambda.
    auto inserted = truffle_callees_.try_emplace(&target, 0);
    int& count = inserted.first->second;
    if (inserted.second) {
      target.root_node()->ForEachNode([&](Node& node) {
        if (dynamic_cast<DirectCallNode*>(&node) != nullptr) ++count;
      });
    }
    return count;
  }

  std::map<const CallTarget*, int> truffle_callees_;
};

// Exploration: records the call sites of one graph and inlines nothing.
class SiteRecorder : public pe::InliningDecisions {
 public:
  explicit SiteRecorder(CallSites& sites) : sites_(sites) {}
  const void* InlineInto(const void*, DirectCallNode* call, CallTarget* callee) override {
    if (seen_.insert(call).second) calls_.push_back(sites_.OfCall(*call, *callee));
    return nullptr;
  }
  void OnIndirectCall(const void*) override {
    calls_.push_back(CallSites::Indirect());
  }
  std::vector<inliner::CallSite> TakeCalls() { return std::move(calls_); }

 private:
  CallSites& sites_;
  std::set<const DirectCallNode*> seen_;
  std::vector<inliner::CallSite> calls_;
};

// Partially evaluates `target` on its own (no inlining) and reports its
// size after dead-code elimination and its call sites.
inliner::Expansion Explore(CallTarget& target, ir::RuntimeRegistry& runtime,
                           pe::PartialEvaluator::Options options, CallSites& sites) {
  inliner::Expansion expansion;
  SiteRecorder recorder(sites);
  options.inlining = &recorder;
  options.rewriting_assumption = nullptr;
  // The size of the callee's own code: no first-tier profiling prologue.
  options.profile_for_next_tier = false;
  options.profile_back_edges = false;
  RootNode* root = target.root_node();
  absl::StatusOr<std::unique_ptr<pe::Compilation>> compilation;
  {
    // Only try (as PartialEvaluator::TryInline does): the compilation holds
    // its root's lock, and another compiler thread may hold this tree's
    // while waiting for ours. A busy tree is not explored.
    std::unique_lock<std::recursive_mutex> guard(root->lock(), std::try_to_lock);
    if (!guard.owns_lock()) {
      expansion.bailed_out = true;
      expansion.bailout_reason = "the callee's tree is being compiled";
      return expansion;
    }
    pe::PartialEvaluator evaluator(target, runtime, options);
    compilation = evaluator.Run();
  }
  if (!compilation.ok()) {
    expansion.bailed_out = true;
    expansion.bailout_reason = std::string(compilation.status().message());
    return expansion;
  }
  opt::PassContext context;
  absl::StatusOr<bool> cleaned =
      opt::DeadCodeElimination().Run(*(*compilation)->function, context);
  MOREL_CHECK_MSG(cleaned.ok(), "dead-code elimination of an explored graph failed");
  expansion.ir_nodes = (*compilation)->function->InstructionCount();
  expansion.calls = recorder.TakeCalls();
  return expansion;
}

class PeExpander : public inliner::Expander {
 public:
  PeExpander(ir::RuntimeRegistry& runtime, const pe::PartialEvaluator::Options& options,
             CallSites& sites)
      : runtime_(runtime), options_(options), sites_(sites) {}
  inliner::Expansion Expand(const inliner::CallNode& node) override {
    // The tree holds CallTarget* as the site's target (CallSites).
    auto* callee = static_cast<CallTarget*>(const_cast<void*>(node.site().target));
    return Explore(*callee, runtime_, options_, sites_);
  }

 private:
  ir::RuntimeRegistry& runtime_;
  const pe::PartialEvaluator::Options& options_;
  CallSites& sites_;
};

// The final partial evaluation: inlines the calls the policy marked
// Inlined, and remembers which call sites of inlined graphs it reached.
class TreeDecisions : public pe::InliningDecisions {
 public:
  explicit TreeDecisions(inliner::CallTree& tree) : tree_(tree) {}
  const void* InlineInto(const void* frame, DirectCallNode* call, CallTarget* callee) override {
    const inliner::CallNode* parent =
        frame != nullptr ? static_cast<const inliner::CallNode*>(frame) : &tree_.root();
    inliner::CallNode* child = parent->FindChild(call);
    if (child == nullptr) return nullptr;  // a call site exploration did not see
    reached_.insert(child);
    if (child->site().target != callee) {
      // The call node was split since exploration: the decision was about
      // another tree. The call stays a call.
      if (child->state() == inliner::CallNodeState::kInlined) {
        OnInlineBailout(child, "the call site was split after exploration");
      }
      return nullptr;
    }
    if (child->state() != inliner::CallNodeState::kInlined || bailed_out_.count(child)) {
      return nullptr;
    }
    return child;
  }
  void OnInlineBailout(const void* callee_frame, const std::string& reason) override {
    auto* node = static_cast<inliner::CallNode*>(const_cast<void*>(callee_frame));
    if (bailed_out_.insert(node).second) tree_.BailOutInlined(*node, reason);
  }
  // Direct call sites of reached inlined graphs that this evaluation never
  // reached: their calls were folded away (Removed).
  void RemoveUnreached() { RemoveUnreached(tree_.root()); }

 private:
  void RemoveUnreached(inliner::CallNode& node) {
    for (const std::unique_ptr<inliner::CallNode>& child : node.children()) {
      if (child->state() == inliner::CallNodeState::kIndirect ||
          child->state() == inliner::CallNodeState::kRemoved) {
        continue;
      }
      if (!reached_.count(child.get())) {
        tree_.Remove(*child);
      } else if (child->state() == inliner::CallNodeState::kInlined &&
                 !bailed_out_.count(child.get())) {
        RemoveUnreached(*child);
      }
    }
  }

  inliner::CallTree& tree_;
  std::set<const inliner::CallNode*> reached_;
  std::set<const inliner::CallNode*> bailed_out_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<pe::Compilation>> PartiallyEvaluateWithInlining(
    CallTarget& target, ir::RuntimeRegistry& runtime, const pe::PartialEvaluator::Options& options,
    const InliningSettings& settings, InliningReport* report) {
  CallSites sites;
  // 1. The root on its own.
  inliner::Expansion root_expansion = Explore(target, runtime, options, sites);
  if (root_expansion.bailed_out) {
    return absl::UnimplementedError(root_expansion.bailout_reason);
  }
  absl::StatusOr<std::unique_ptr<inliner::InliningPolicy>> policy =
      inliner::CreatePolicy(settings.policy, settings.first_tier, settings.options);
  if (!policy.ok()) return policy.status();
  inliner::CallSite root_site = sites.OfTarget(target);
  root_site.call_count = target.call_count();
  PeExpander expander(runtime, options, sites);
  inliner::CallTree tree(std::move(root_site), std::move(root_expansion), expander,
                         policy->get());
  if (settings.dump_call_tree) report->dot_before = tree.ToGraphviz("Before Inline");

  // 2. The policy's decisions.
  inliner::RunInliningPhase(tree, **policy, settings.options);

  // 3. The root again, with the Inlined calls evaluated into it.
  TreeDecisions decisions(tree);
  pe::PartialEvaluator::Options final_options = options;
  final_options.inlining = &decisions;
  absl::StatusOr<std::unique_ptr<pe::Compilation>> compilation;
  {
    pe::PartialEvaluator evaluator(target, runtime, final_options);
    compilation = evaluator.Run();
  }
  if (!compilation.ok()) return compilation.status();
  decisions.RemoveUnreached();

  report->inlined_y = tree.InlinedY();
  report->inlined_n = tree.InlinedN();
  if (settings.trace || settings.trace_details) report->trace = tree.Trace(settings.trace_details);
  if (settings.dump_call_tree) report->dot_after = tree.ToGraphviz("After Inline");
  for (const void* dequeued : tree.TargetsToDequeue()) {
    report->dequeue.push_back(static_cast<CallTarget*>(const_cast<void*>(dequeued)));
  }
  return compilation;
}

}  // namespace morel::runtime
