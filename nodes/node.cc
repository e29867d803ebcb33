#include "nodes/node.h"

#include <memory>
#include <mutex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "nodes/call_target.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"

namespace morel {

const SourceSection Node::kNoSourceSection;

const SourceSection* Node::EncapsulatingSourceSection() const {
  for (const Node* node = this; node != nullptr; node = node->parent_) {
    if (node->source_section_ != nullptr) return node->source_section_.get();
  }
  return nullptr;
}

RootNode* Node::GetRootNode() const {
  const Node* node = this;
  while (node->parent_ != nullptr) node = node->parent_;
  // Only a RootNode is adopted at the top of a tree; a detached subtree has
  // no root.
  if (node->role() != Role::kRoot) return nullptr;
  return const_cast<RootNode*>(static_cast<const RootNode*>(node));
}

void Node::AdoptChildren() {
  ForEachChild([this](ChildSlot& slot) {
    Node* child = slot.get();
    if (child == nullptr) return;
    child->parent_ = this;
    child->AdoptChildren();
  });
}

int Node::CountNodes() {
  int count = 0;
  ForEachNode([&count](Node&) { ++count; });
  return count;
}

void Node::ForEachNode(absl::FunctionRef<void(Node&)> visit) {
  visit(*this);
  ForEachChild([visit](ChildSlot& slot) {
    if (Node* child = slot.get()) child->ForEachNode(visit);
  });
}

void Node::ReplaceImpl(std::unique_ptr<Node> replacement,
                       absl::string_view reason) {
  MOREL_CHECK_MSG(parent_ != nullptr,
                  absl::StrCat("Replace() of a ", kind_name(), " that has no parent"));
  Node* parent = parent_;
  ChildSlot* owner = nullptr;
  parent->ForEachChild([&](ChildSlot& slot) {
    if (slot.get() == this) owner = &slot;
  });
  MOREL_CHECK_MSG(owner != nullptr,
                  absl::StrCat("Replace(): ", kind_name(), " is not a child of its parent"));
  Node* new_node = replacement.release();
  new_node->parent_ = parent;
  new_node->AdoptChildren();
  Node* old_node = owner->Exchange(new_node);
  parent->OnChildReplaced(*old_node, *new_node);
  RootNode* root = parent->GetRootNode();
  if (root == nullptr) {
    // A detached tree has no root to retire to, and the old node may be the
    // one executing this call (self-replacement): keep it alive for the
    // process. Replacing inside detached trees is rare (tests, builders).
    static std::vector<std::unique_ptr<Node>>* detached_retired =
        new std::vector<std::unique_ptr<Node>>();
    static std::mutex detached_lock;
    std::lock_guard<std::mutex> guard(detached_lock);
    detached_retired->emplace_back(old_node);
    return;
  }
  root->NoteRewrite();
  if (CallTarget* target = root->call_target()) {
    target->runtime()->OnNodeReplaced(*target, *old_node, *new_node, reason);
  }
  root->Retire(std::unique_ptr<Node>(old_node));
}

Outcome Node::Resume(Frame&, int next_child, absl::Span<const Outcome>) {
  MOREL_UNREACHABLE(absl::StrCat(kind_name(), " cannot resume at child ", next_child));
}

void Node::ReportPolymorphicSpecialize() {
  RootNode* root = GetRootNode();
  if (root == nullptr) return;
  CallTarget* target = root->call_target();
  if (target == nullptr) return;
  target->runtime()->OnPolymorphicSpecialize(*this);
}

}  // namespace morel
