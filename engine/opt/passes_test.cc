// Properties every standard pass must have, checked on the file-test
// inputs: it reports a change iff the printed IR changed, running it again
// right away changes nothing for the idempotent ones, and it never removes,
// duplicates or reorders effectful instructions of reachable blocks.

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "engine/opt/pass_registry.h"
#include "engine/opt/canonicalize.h"
#include "engine/opt/dce.h"
#include "engine/opt/gvn.h"
#include "engine/opt/standard_passes.h"
#include "gtest/gtest.h"

namespace morel::opt {
namespace {

constexpr char kInput[] = R"(declare @effect(i64) -> (i64)
func @f(i64, ptr, i1) -> (i64) {
  fs0 = eager interpreter target 1 resume 0 locals [v0:v0] stack []
block0(v0: i64, v1: ptr, v2: i1):
  v3 = iconst.i64 0
  v4 = iadd v0, v3
  v5 = load.i64 v1, 0
  v6 = load.i64 v1, 0
  v7 = iadd v4, v5
  v8 = iadd v0, v6
  v9 = call_runtime @effect(v7) -> (i64)
  store.i64 v8, v1, 8
  guard v2, fs0, "a"
  guard v2, fs0, "b"
  v10 = icmp eq v7, v8
  br v10, block1, block2(v9)
block1:
  v11 = call_runtime @effect(v8) -> (i64)
  jump block2(v11)
block2(v12: i64):
  v13 = iadd v12, v3
  return v13
}
)";

// The effectful instructions (opcode and printed form) in layout order.
std::vector<std::string> Effects(const ir::Function& f) {
  std::vector<std::string> out;
  for (const ir::Block* b : f.blocks()) {
    for (const ir::Instruction* inst : b->instructions()) {
      if (inst->info().effects == ir::Effects::kEffect) out.emplace_back(ir::OpcodeName(inst->opcode()));
    }
  }
  return out;
}

TEST(PassesTest, ContractHoldsForEveryStandardPass) {
  const PassRegistry& registry = PassRegistry::Standard();
  for (const std::string& name : registry.names()) {
    SCOPED_TRACE(name);
    ir::RuntimeRegistry runtime;
    auto f = ir::ParseFunction(kInput, &runtime);
    ASSERT_TRUE(f.ok()) << f.status();
    auto pass = registry.Create(name);
    ASSERT_TRUE(pass.ok());
    std::string before = ir::PrintFunction(**f);
    std::vector<std::string> effects_before = Effects(**f);
    PassContext ctx;
    auto changed = (*pass)->Run(**f, ctx);
    ASSERT_TRUE(changed.ok());
    EXPECT_TRUE(ir::Verify(**f).ok()) << ir::Verify(**f);
    std::string after = ir::PrintFunction(**f);
    EXPECT_EQ(*changed, before != after);
    EXPECT_EQ(*changed, ctx.rewrites() > 0);
    std::vector<std::string> effects_after = Effects(**f);
    if (name == "guard_elim" || name == "canonicalize" || name == "guard_hoist") {
      // Guards may go (or, hoisted, be split in two); nothing else effectful.
      std::erase(effects_before, "guard");
      std::erase(effects_after, "guard");
    }
    if (name == "load_elim") {
      // Exactly the redundant load (v6 repeats v5 with nothing in between).
      EXPECT_EQ(std::count(effects_before.begin(), effects_before.end(), "load"), 2);
      EXPECT_EQ(std::count(effects_after.begin(), effects_after.end(), "load"), 1);
      std::erase(effects_before, "load");
      std::erase(effects_after, "load");
    }
    EXPECT_EQ(effects_after, effects_before);
    PassContext again;
    auto changed_again = (*pass)->Run(**f, again);
    ASSERT_TRUE(changed_again.ok());
    EXPECT_FALSE(*changed_again) << ir::PrintFunction(**f);
  }
}

TEST(PassesTest, RegistryKnowsTheStandardPasses) {
  EXPECT_EQ(PassRegistry::Standard().names(),
            (std::vector<std::string>{"canonicalize", "dce", "guard_elim", "guard_hoist", "gvn",
                                      "load_elim", "partial_escape", "simplify_cfg"}));
  PassRegistry r;
  EXPECT_TRUE(r.Register<Canonicalize>().ok());
  EXPECT_EQ(r.Register<Canonicalize>().code(), absl::StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace morel::opt
