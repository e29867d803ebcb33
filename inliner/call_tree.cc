#include "inliner/call_tree.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "base/check.h"
#include "inliner/default_policy.h"
#include "inliner/event_format.h"
#include "inliner/inlining_policy.h"

namespace morel::inliner {
namespace {

const void* Family(const CallSite& site) {
  return site.target_family != nullptr ? site.target_family : site.target;
}

// Java's (double) a / (double) b, for a non-negative a and a positive b.
double FrequencyFactor(int call_count, int target_call_count) {
  return static_cast<double>(std::max(1, call_count)) /
         static_cast<double>(std::max(1, target_call_count));
}

void CollectInlined(const CallNode& node, const void* root_target, bool dequeue_only,
                    absl::flat_hash_set<const void*>& seen,
                    std::vector<const void*>& out) {
  if (node.state() != CallNodeState::kInlined) return;
  const void* target = node.site().target;
  bool wanted = !dequeue_only ||
                (target != root_target && node.site().known_call_site_count == 1);
  if (wanted && seen.insert(target).second) out.push_back(target);
  for (const auto& child : node.children()) {
    CollectInlined(*child, root_target, dequeue_only, seen, out);
  }
}

// Graphviz fill colours, one per state (the order of CallNodeState).
absl::string_view StateColour(CallNodeState state) {
  switch (state) {
    case CallNodeState::kCutoff: return "lightgrey";
    case CallNodeState::kExpanded: return "lightblue";
    case CallNodeState::kInlined: return "palegreen";
    case CallNodeState::kRemoved: return "white";
    case CallNodeState::kIndirect: return "khaki";
    case CallNodeState::kBailedOut: return "salmon";
  }
  return "white";
}

std::string DotEscape(absl::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

void DotNode(const CallNode& node, std::string& out) {
  absl::StrAppendFormat(
      &out, "  n%d [label=\"%s\\n%s\\nIR nodes %d\\nfrequency %s\", fillcolor=%s];\n",
      node.id(), DotEscape(node.name()), StateName(node.state()), node.ir_nodes(),
      FormatJavaFixed(node.frequency(), 0, 2), StateColour(node.state()));
  for (const auto& child : node.children()) {
    DotNode(*child, out);
    absl::StrAppendFormat(&out, "  n%d -> n%d;\n", node.id(), child->id());
  }
}

}  // namespace

absl::string_view StateName(CallNodeState state) {
  switch (state) {
    case CallNodeState::kCutoff: return "Cutoff";
    case CallNodeState::kExpanded: return "Expanded";
    case CallNodeState::kInlined: return "Inlined";
    case CallNodeState::kRemoved: return "Removed";
    case CallNodeState::kIndirect: return "Indirect";
    case CallNodeState::kBailedOut: return "BailedOut";
  }
  return "?";
}

int Expander::CurrentRootSize(const CallTree& tree) { return tree.InlinedIrNodes(); }

CallNode::CallNode(int id, CallSite site, CallNode* parent)
    : id_(id), parent_(parent), site_(std::move(site)) {
  if (parent_ != nullptr) depth_ = parent_->depth_ + 1;
  if (site_.indirect) {
    state_ = CallNodeState::kIndirect;
    return;  // frequency 0
  }
  frequency_ = parent_ == nullptr
                   ? 1.0
                   : parent_->frequency_ *
                         FrequencyFactor(site_.call_count, parent_->site_.target_call_count);
  trivial_ = site_.trivial;
  const void* family = Family(site_);
  for (const CallNode* ancestor = parent_; ancestor != nullptr; ancestor = ancestor->parent_) {
    if (!ancestor->site_.indirect && Family(ancestor->site_) == family) ++recursion_depth_;
  }
}

const std::string& CallNode::name() const {
  static const std::string* const kIndirect = new std::string("<indirect>");
  return site_.indirect ? *kIndirect : site_.name;
}

CallNode* CallNode::FindChild(const void* key) const {
  if (key == nullptr) return nullptr;
  for (const auto& child : children_) {
    if (child->site_.key == key) return child.get();
  }
  return nullptr;
}

CallTree::CallTree(CallSite root, Expansion root_expansion, Expander& expander,
                   InliningPolicy* policy)
    : expander_(expander) {
  set_policy(policy);
  MOREL_CHECK_MSG(!root_expansion.bailed_out, "the root of a call tree cannot bail out");
  root.indirect = false;
  root_ = NewNode(std::move(root), nullptr);
  root_->ir_nodes_ = root_expansion.ir_nodes;
  if (root_expansion.trivial_failed) root_->trivial_ = false;
  AddChildren(*root_, std::move(root_expansion.calls), /*with_indirect=*/false);
  root_->state_ = CallNodeState::kInlined;
  policy_->AfterExpand(*this, *root_);
  frontier_size_ = static_cast<int>(root_->children_.size());
}

CallTree::~CallTree() = default;

void CallTree::set_policy(InliningPolicy* policy) {
  if (policy == nullptr) {
    if (default_policy_ == nullptr) {
      default_policy_ = std::make_unique<DefaultInliningPolicy>(InliningOptions());
    }
    policy = default_policy_.get();
  }
  policy_ = policy;
}

std::unique_ptr<CallNode> CallTree::NewNode(CallSite site, CallNode* parent) {
  return std::unique_ptr<CallNode>(new CallNode(next_id_++, std::move(site), parent));
}

void CallTree::AddChildren(CallNode& node, std::vector<CallSite> calls, bool with_indirect) {
  // Truffle adds the direct calls first (while copying the graph), then the
  // indirect ones; ids follow that order.
  auto indirect = std::stable_partition(calls.begin(), calls.end(),
                                        [](const CallSite& call) { return !call.indirect; });
  if (!with_indirect) calls.erase(indirect, calls.end());
  for (CallSite& call : calls) node.children_.push_back(NewNode(std::move(call), &node));
}

void CallTree::Expand(CallNode& node) {
  MOREL_CHECK_MSG(node.state_ == CallNodeState::kCutoff, "only a Cutoff node can be expanded");
  MOREL_CHECK_MSG(node.parent_ != nullptr, "the root is expanded at construction");
  node.state_ = CallNodeState::kExpanded;
  ++expanded_;
  Expansion expansion = expander_.Expand(node);
  if (expansion.bailed_out) {
    node.state_ = CallNodeState::kBailedOut;
    node.bailout_reason_ = std::move(expansion.bailout_reason);
    return;
  }
  if (expansion.trivial_failed) node.trivial_ = false;
  node.ir_nodes_ = expansion.ir_nodes;
  AddChildren(node, std::move(expansion.calls), /*with_indirect=*/true);
  policy_->AfterExpand(*this, node);
}

void CallTree::Inline(CallNode& node) {
  MOREL_CHECK_MSG(node.state_ == CallNodeState::kExpanded, "only an Expanded node can be inlined");
  node.state_ = CallNodeState::kInlined;
  ++inlined_;
  frontier_size_ += static_cast<int>(node.children_.size()) - 1;
}

void CallTree::Remove(CallNode& node) {
  MOREL_CHECK_MSG(node.parent_ != nullptr, "the root cannot be removed");
  node.state_ = CallNodeState::kRemoved;
}

void CallTree::BailOutInlined(CallNode& node, std::string reason) {
  MOREL_CHECK_MSG(node.state_ == CallNodeState::kInlined && node.parent_ != nullptr,
                  "only an inlined callee can bail out of the final evaluation");
  node.state_ = CallNodeState::kBailedOut;
  node.bailout_reason_ = std::move(reason);
  --inlined_;
  frontier_size_ -= static_cast<int>(node.children_.size()) - 1;
}

int CallTree::InlinedIrNodes() const {
  int size = 0;
  std::vector<const CallNode*> stack = {root_.get()};
  while (!stack.empty()) {
    const CallNode* node = stack.back();
    stack.pop_back();
    if (node->state_ != CallNodeState::kInlined) continue;
    size += node->ir_nodes_;
    for (const auto& child : node->children_) stack.push_back(child.get());
  }
  return size;
}

std::vector<const void*> CallTree::TargetsToDequeue() const {
  absl::flat_hash_set<const void*> seen;
  std::vector<const void*> out;
  CollectInlined(*root_, root_->site_.target, /*dequeue_only=*/true, seen, out);
  return out;
}

std::vector<const void*> CallTree::InlinedTargets() const {
  absl::flat_hash_set<const void*> seen;
  std::vector<const void*> out;
  CollectInlined(*root_, root_->site_.target, /*dequeue_only=*/false, seen, out);
  return out;
}

std::vector<std::string> CallTree::Trace(bool details) const {
  std::vector<std::string> lines;
  TraceNode(*root_, details, lines);
  return lines;
}

void CallTree::TraceNode(const CallNode& node, bool details,
                         std::vector<std::string>& lines) const {
  std::vector<TraceProperty> properties;
  if (node.state_ != CallNodeState::kIndirect) {
    // Java's HashMap<String, Object> order for these keys (see the header).
    if (policy_->TracesCallDiff()) properties.push_back({"call diff", node.call_diff_});
    properties.push_back({"Recursion Depth", node.recursion_depth_});
    double ratio = node.is_root() ? static_cast<double>(expanded_) / inlined_
                                  : std::numeric_limits<double>::quiet_NaN();
    properties.push_back({"Explore/inline ratio", ratio});
    properties.push_back({"IR Nodes", node.ir_nodes_});
    properties.push_back({"Frequency", node.frequency_});
    properties.push_back({"Truffle Callees", node.site_.truffle_callees});
    properties.push_back({"Forced", node.forced()});
    properties.push_back({"Depth", node.depth_});
  }
  lines.push_back(FormatEvent(node.depth_, node.is_root() ? "Inline start" : StateName(node.state_),
                              node.name(), properties));
  if (node.state_ == CallNodeState::kInlined || details) {
    for (const auto& child : node.children_) TraceNode(*child, details, lines);
  }
  if (node.is_root()) lines.push_back(FormatEvent(0, "Inline done", node.name(), properties));
}

std::string CallTree::ToGraphviz(absl::string_view title) const {
  std::string out = absl::StrFormat("digraph \"%s\" {\n", DotEscape(title));
  absl::StrAppendFormat(&out, "  label=\"%s\";\n  labelloc=t;\n", DotEscape(title));
  out += "  node [shape=box, style=filled];\n";
  DotNode(*root_, out);
  out += "}\n";
  return out;
}

}  // namespace morel::inliner
