#include "inliner/fake_program.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace morel::inliner::testing {

void FakeProgram::Define(const std::string& name, FakeTarget target) {
  targets_[name] = Target{name, std::move(target)};
}

const FakeProgram::Target& FakeProgram::Get(const std::string& name) const {
  auto it = targets_.find(name);
  MOREL_CHECK_MSG(it != targets_.end(), "undefined fake target");
  return it->second;
}

CallSite FakeProgram::Site(const FakeCall& call) const {
  CallSite site;
  site.key = &call;
  site.call_count = call.call_count;
  if (call.indirect) {
    site.indirect = true;
    return site;
  }
  const Target& callee = Get(call.callee);
  site.target = &callee;
  if (!callee.spec.family.empty()) site.target_family = &Get(callee.spec.family);
  site.name = callee.name;
  site.target_call_count = callee.spec.call_count;
  for (const FakeCall& inner : callee.spec.calls) {
    if (!inner.indirect) ++site.truffle_callees;
  }
  site.known_call_site_count = callee.spec.known_call_site_count;
  site.trivial = callee.spec.trivial;
  site.forced = call.forced;
  return site;
}

Expansion FakeProgram::ExpansionOf(const Target& target) const {
  Expansion expansion;
  if (!target.spec.bailout.empty()) {
    expansion.bailed_out = true;
    expansion.bailout_reason = target.spec.bailout;
    return expansion;
  }
  expansion.ir_nodes = target.spec.ir_nodes;
  expansion.trivial_failed = target.spec.trivial_failed;
  for (const FakeCall& call : target.spec.calls) expansion.calls.push_back(Site(call));
  return expansion;
}

CallSite FakeProgram::RootSite(const std::string& name) const {
  FakeCall call{name, 0};
  CallSite site = Site(call);
  site.key = nullptr;
  return site;
}

Expansion FakeProgram::RootExpansion(const std::string& name) const {
  return ExpansionOf(Get(name));
}

std::unique_ptr<CallTree> FakeProgram::Tree(const std::string& name, InliningPolicy* policy) {
  return std::make_unique<CallTree>(RootSite(name), RootExpansion(name), *this, policy);
}

Expansion FakeProgram::Expand(const CallNode& node) {
  const Target& target = *static_cast<const Target*>(node.site().target);
  expanded_.push_back(target.name);
  return ExpansionOf(target);
}

const void* FakeProgram::target(const std::string& name) const { return &Get(name); }

const void* FakeProgram::call_site(const std::string& caller, int index) const {
  return &Get(caller).spec.calls.at(index);
}

const CallNode& NodeAt(const CallNode& node, std::initializer_list<int> path) {
  const CallNode* current = &node;
  for (int index : path) current = current->children().at(index).get();
  return *current;
}

std::string Shape(const CallNode& node) {
  std::string out = absl::StrCat(node.name(), ":", StateName(node.state()));
  if (!node.children().empty()) {
    out += "(";
    for (size_t i = 0; i < node.children().size(); ++i) {
      if (i > 0) out += " ";
      out += Shape(*node.children()[i]);
    }
    out += ")";
  }
  return out;
}

}  // namespace morel::inliner::testing
