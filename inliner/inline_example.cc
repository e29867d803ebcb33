// The inliner used alone (//inliner depends on Abseil only): a caller
// supplies an Expander that knows the sizes and call sites of its functions,
// builds a CallTree for one compilation and lets the Default policy decide.
// Here a hand-built program: `main` calls `small` (hot) and `huge` (rarely,
// and bigger than the budgets); `small` calls `leaf`. Prints TraceInlining
// and exits non-zero unless small and leaf are inlined and huge is not.

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "inliner/call_tree.h"
#include "inliner/inlining_policy.h"

namespace {

namespace inliner = morel::inliner;

struct Function {
  int ir_nodes;
  int calls;  // how often its call site ran (its call count)
  std::vector<std::string> callees;
};

const std::map<std::string, Function>& Program() {
  static const auto* program = new std::map<std::string, Function>{
      {"main", {40, 1000, {"small", "huge"}}},
      {"small", {25, 1000, {"leaf"}}},
      {"leaf", {10, 1000, {}}},
      {"huge", {20000, 10, {}}},
  };
  return *program;
}

// A call site per callee name; the function's name is its identity.
inliner::CallSite Site(const std::string& name) {
  inliner::CallSite site;
  site.key = &Program().at(name);  // one call site per callee here
  site.target = &Program().at(name);
  site.name = name;
  site.call_count = Program().at(name).calls;
  site.target_call_count = Program().at(name).calls;
  site.truffle_callees = Program().at(name).callees.size();
  site.known_call_site_count = 1;
  return site;
}

inliner::Expansion Expand(const std::string& name) {
  inliner::Expansion expansion;
  expansion.ir_nodes = Program().at(name).ir_nodes;
  for (const std::string& callee : Program().at(name).callees) {
    expansion.calls.push_back(Site(callee));
  }
  return expansion;
}

// What the engine implements with its partial evaluator.
class ProgramExpander : public inliner::Expander {
 public:
  inliner::Expansion Expand(const inliner::CallNode& node) override {
    return ::Expand(node.name());
  }
};

}  // namespace

int main() {
  inliner::InliningOptions options;  // Truffle's defaults: budgets 12000
  auto policy = inliner::CreatePolicy("Default", /*first_tier=*/false, options);
  if (!policy.ok()) {
    std::cerr << policy.status() << "\n";
    return 1;
  }
  ProgramExpander expander;
  inliner::CallTree tree(Site("main"), Expand("main"), expander, policy->get());
  inliner::RunInliningPhase(tree, **policy, options);

  for (const std::string& line : tree.Trace(/*details=*/true)) std::cout << line << "\n";
  std::cout << "opt done |Inlined " << tree.InlinedY() << " " << tree.InlinedN() << "\n";

  const auto inlined = tree.InlinedTargets();
  auto was_inlined = [&](const char* name) {
    return std::find(inlined.begin(), inlined.end(), &Program().at(name)) != inlined.end();
  };
  const bool ok = was_inlined("small") && was_inlined("leaf") && !was_inlined("huge");
  if (!ok) std::cerr << "unexpected decisions\n";
  return ok ? 0 : 1;
}
