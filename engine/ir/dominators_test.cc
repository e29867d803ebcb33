#include "engine/ir/dominators.h"

#include "engine/ir/cfg.h"
#include "engine/ir/parser.h"
#include "gtest/gtest.h"

namespace morel::ir {
namespace {

TEST(DominatorsTest, DiamondLoopAndUnreachable) {
  RuntimeRegistry registry;
  auto f = ParseFunction(R"(
func @f(i1) -> () {
block0(v0: i1):
  br v0, block1, block2
block1:
  jump block3
block2:
  jump block3
block3:
  br v0, block4, block5
block4:
  jump block3
block5:
  return
block6:
  jump block5
}
)",
                         &registry);
  ASSERT_TRUE(f.ok()) << f.status();
  const auto& b = (*f)->blocks();
  DominatorTree dom(**f);
  EXPECT_EQ(dom.rpo().size(), 6u);
  EXPECT_EQ(dom.rpo()[0], b[0]);
  EXPECT_EQ(dom.idom(b[0]), nullptr);
  EXPECT_EQ(dom.idom(b[1]), b[0]);
  EXPECT_EQ(dom.idom(b[3]), b[0]);  // join of the diamond
  EXPECT_EQ(dom.idom(b[4]), b[3]);  // loop body
  EXPECT_EQ(dom.idom(b[5]), b[3]);
  EXPECT_TRUE(dom.Dominates(b[3], b[4]));
  EXPECT_TRUE(dom.Dominates(b[3], b[3]));
  EXPECT_FALSE(dom.Dominates(b[1], b[3]));
  EXPECT_FALSE(dom.Dominates(b[4], b[5]));
  EXPECT_FALSE(dom.IsReachable(b[6]));
  EXPECT_FALSE(dom.Dominates(b[6], b[5]));
  EXPECT_EQ(dom.idom(b[6]), nullptr);

  auto preds = ComputePredecessors(**f);
  EXPECT_EQ(preds[b[3]].size(), 3u);  // block1, block2, block4
  EXPECT_EQ(preds[b[5]].size(), 2u);  // block3, unreachable block6
}

}  // namespace
}  // namespace morel::ir
