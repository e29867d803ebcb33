#ifndef MOREL_NODES_NODE_H_
#define MOREL_NODES_NODE_H_

// Node: the unit of a self-specializing interpreter (Truffle's Node).
//
// A node has a parent, children held in Child<T>/ChildList<T> fields (which
// own them), and a source section. A node replaces itself with Replace(); the
// replaced node is retired to its root, not freed, because it may still be
// executing (self-replacement) or be read by a compiler thread.
//
// Threading: the interpreter mutates a tree only under its root's lock
// (RootNode::lock()); child pointers and specialization state words are
// atomics published with release stores, so a compiler thread may read the
// tree concurrently with acquire loads and sees either the old or the new
// node, never a torn one.

#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "nodes/heap.h"
#include "nodes/resume.h"
#include "nodes/source.h"

namespace morel {

class Node;
class RootNode;

// How a node class takes part in polymorphism reporting (DESIGN §4). Declared
// once per class by inheriting one of the mixins in nodes/polymorphism.h and
// inherited by subclasses, like Truffle's @ReportPolymorphism.
enum class PolymorphismReporting {
  kNone,         // never reports (the default)
  kReport,       // reports every increase of polymorphism
  kExclude,      // never reports, even if a superclass does
  kMegamorphic,  // reports only when a megamorphic specialization activates
};

// The owning slot of one child. Type-erased so that Replace() can find and
// swap a child without knowing the parent's class.
class ChildSlot {
 public:
  ChildSlot() = default;
  ChildSlot(const ChildSlot&) = delete;
  ChildSlot& operator=(const ChildSlot&) = delete;
  // Defined after Node: deleting the still-incomplete Node here would skip
  // its (virtual) destructor and RootAllocated::operator delete, handing
  // collector memory to free() ("free(): invalid pointer").
  inline ~ChildSlot();

  Node* get() const { return node_.load(std::memory_order_acquire); }
  // Stores `node` and returns the previous occupant (ownership passes).
  Node* Exchange(Node* node) {
    return node_.exchange(node, std::memory_order_acq_rel);
  }

 private:
  std::atomic<Node*> node_{nullptr};
};

using ChildVisitor = absl::FunctionRef<void(ChildSlot&)>;

class Node : public heap::RootAllocated {
 public:
  explicit Node(SourceSection source_section = {})
      : source_section_(source_section.IsValid()
                            ? std::make_unique<const SourceSection>(std::move(source_section))
                            : nullptr) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node() = default;

  // A stable class name for dumps, traces and TraceSplittingSummary ("SLAddNode").
  virtual absl::string_view kind_name() const = 0;

  // Calls `visitor` on every child slot, in execution order. Nodes without
  // children keep the default.
  virtual void ForEachChild(ChildVisitor visitor) {}

  virtual PolymorphismReporting polymorphism_reporting() const {
    return PolymorphismReporting::kNone;
  }

  // What the parent walks of loop-count reporting look for (every loop
  // exit reports to the enclosing loops and the root): a RootNode and a
  // LoopNode say so. A dynamic_cast or a typeid compare there compared
  // type names with strcmp, about 500 instructions per loop exit (4.5% of
  // sieve's in the AST interpreter).
  enum class Role : uint8_t { kOther, kRoot, kLoop };
  virtual Role role() const { return Role::kOther; }

  // Continues this node's evaluation after its children [0, next_child)
  // produced `done` (nodes/resume.h): evaluates the remaining children,
  // performs the node's operation, returns its outcome. Nodes that can hold
  // a deoptimization point override it; the default aborts naming the class.
  virtual Outcome Resume(Frame& frame, int next_child,
                         absl::Span<const Outcome> done);

  Node* parent() const { return parent_; }
  const SourceSection& source_section() const {
    return source_section_ != nullptr ? *source_section_ : kNoSourceSection;
  }
  // This node's section, or that of the nearest ancestor that has one.
  const SourceSection* EncapsulatingSourceSection() const;
  // The root of the tree this node is adopted into, or null.
  RootNode* GetRootNode() const;

  // Makes this node the parent of every child, recursively.
  void AdoptChildren();
  // Makes this node the parent of `child` (and `child` of its children):
  // for children attached after the tree was built, e.g. in cache entries.
  void Adopt(Node& child) {
    child.parent_ = this;
    child.AdoptChildren();
  }
  // Number of nodes in this subtree, this one included.
  int CountNodes();
  // Calls `visit` on every node of this subtree, this one first (preorder,
  // children in execution order).
  void ForEachNode(absl::FunctionRef<void(Node&)> visit);

  // Replaces this node in its parent with `replacement` (which the parent
  // adopts) and retires this node to the root. Must hold the root's lock
  // when the tree is reachable from other threads. Returns the replacement.
  template <typename T>
  T* Replace(std::unique_ptr<T> replacement, absl::string_view reason) {
    T* raw = replacement.get();
    ReplaceImpl(std::unique_ptr<Node>(replacement.release()), reason);
    return raw;
  }

  // Tells the runtime that a specialization change raised this node's degree
  // of polymorphism (Truffle's Node.reportPolymorphicSpecialize()).
  void ReportPolymorphicSpecialize();

  // Replace() put `new_child` where `old_child` was among this node's
  // children (a parent that indexes its children elsewhere -- a bytecode
  // root's operations -- follows it here). Under the root's lock.
  virtual void OnChildReplaced(Node& old_child, Node& new_child) {}

 protected:
  template <typename T>
  friend class Child;
  template <typename T>
  friend class ChildList;
  void set_parent(Node* parent) { parent_ = parent; }

 private:
  void ReplaceImpl(std::unique_ptr<Node> replacement, absl::string_view reason);

  static const SourceSection kNoSourceSection;

  // An AST interpreter reads its nodes all the time, and a program's hot
  // trees outgrow the L1 data cache (SL's richards: most of its misses are
  // on node fields). The section, read only for messages, traces and
  // compilation, is therefore out of line: a pointer, null for none (24
  // bytes less per node).
  Node* parent_ = nullptr;
  std::unique_ptr<const SourceSection> source_section_;
};

ChildSlot::~ChildSlot() { delete node_.load(std::memory_order_relaxed); }

// An owned child of static type T.
template <typename T>
class Child {
 public:
  Child() = default;
  explicit Child(std::unique_ptr<T> node) { slot_.Exchange(node.release()); }
  Child(Child&& other) { slot_.Exchange(other.slot_.Exchange(nullptr)); }
  Child& operator=(std::unique_ptr<T> node) {
    delete slot_.Exchange(node.release());
    return *this;
  }

  T* get() const { return static_cast<T*>(slot_.get()); }
  T* operator->() const { return get(); }
  T& operator*() const { return *get(); }
  explicit operator bool() const { return get() != nullptr; }
  ChildSlot& slot() { return slot_; }

 private:
  ChildSlot slot_;
};

// An owned, fixed-length list of children (Truffle's @Children arrays).
template <typename T>
class ChildList {
 public:
  ChildList() = default;
  explicit ChildList(std::vector<std::unique_ptr<T>> nodes)
      : slots_(nodes.size()) {
    for (size_t i = 0; i < nodes.size(); ++i) slots_[i].Exchange(nodes[i].release());
  }
  ChildList(ChildList&&) = default;

  size_t size() const { return slots_.size(); }
  T* operator[](size_t i) const { return static_cast<T*>(slots_[i].get()); }
  void ForEach(ChildVisitor visitor) {
    for (ChildSlot& slot : slots_) visitor(slot);
  }

 private:
  // ChildSlot is neither copyable nor movable; a unique array keeps the slots
  // at fixed addresses.
  struct Slots {
    explicit Slots(size_t n = 0) : n(n), data(n ? new ChildSlot[n] : nullptr) {}
    size_t size() const { return n; }
    ChildSlot& operator[](size_t i) { return data[i]; }
    const ChildSlot& operator[](size_t i) const { return data[i]; }
    ChildSlot* begin() { return data.get(); }
    ChildSlot* end() { return data.get() + n; }
    size_t n;
    std::unique_ptr<ChildSlot[]> data;
  };
  Slots slots_;
};

// Declares kind_name() for a node class.
#define MOREL_NODE_KIND(Name)                                      \
  absl::string_view kind_name() const override { return #Name; }

}  // namespace morel

#endif  // MOREL_NODES_NODE_H_
