#ifndef MOREL_INLINER_FAKE_PROGRAM_H_
#define MOREL_INLINER_FAKE_PROGRAM_H_

// Test support: a hand-built "program" of call targets (IR size after PE,
// call sites, counts, flags) and an Expander that "partially evaluates" a
// target by reporting what the program says about it.

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "inliner/call_tree.h"

namespace morel::inliner::testing {

struct FakeCall {
  std::string callee;     // a target's name; unused for an indirect call
  int call_count = 0;     // calls through this call site
  bool forced = false;    // DirectCallNode::ForceInlining()
  bool indirect = false;  // an indirect call site
};

// A direct call of `callee` made `call_count` times, the same forced, and an
// indirect call.
inline FakeCall Call(const std::string& callee, int call_count = 0) {
  return {callee, call_count};
}
inline FakeCall ForcedCall(const std::string& callee, int call_count = 0) {
  return {callee, call_count, /*forced=*/true};
}
inline FakeCall IndirectCall() { return {"", 0, false, true}; }

struct FakeTarget {
  int ir_nodes = 0;
  std::vector<FakeCall> calls;
  int call_count = 0;
  int known_call_site_count = 0;
  bool trivial = false;
  bool trivial_failed = false;  // claims trivial, is not after PE
  std::string bailout;          // non-empty: PE bails out with this reason
  std::string family;           // a split copy: the source target's name
};

class FakeProgram : public Expander {
 public:
  // Defines (or replaces) target `name`. Define every target before building
  // trees: call sites and targets are identified by their addresses here.
  void Define(const std::string& name, FakeTarget target);

  // The call site and expansion of `name` as a compilation root.
  CallSite RootSite(const std::string& name) const;
  Expansion RootExpansion(const std::string& name) const;
  // A tree rooted at `name`.
  std::unique_ptr<CallTree> Tree(const std::string& name, InliningPolicy* policy = nullptr);

  Expansion Expand(const CallNode& node) override;

  // The names of the targets expanded so far, in order.
  const std::vector<std::string>& expanded() const { return expanded_; }
  // A target's identity (CallSite::target).
  const void* target(const std::string& name) const;
  // The identity (CallSite::key) of `caller`'s call site number `index`.
  const void* call_site(const std::string& caller, int index) const;

 private:
  struct Target {
    std::string name;
    FakeTarget spec;
  };
  const Target& Get(const std::string& name) const;
  CallSite Site(const FakeCall& call) const;
  Expansion ExpansionOf(const Target& target) const;

  std::map<std::string, Target> targets_;  // node-based: addresses stay put
  std::vector<std::string> expanded_;
};

// The node reached from `node` by child indices.
const CallNode& NodeAt(const CallNode& node, std::initializer_list<int> path);

// The tree in one line, for assertions: name:State(child child ...), e.g.
// "main:Inlined(a:Inlined(b:Cutoff) c:Expanded)". Indirect nodes print as
// "<indirect>:Indirect".
std::string Shape(const CallNode& node);

}  // namespace morel::inliner::testing

#endif  // MOREL_INLINER_FAKE_PROGRAM_H_
