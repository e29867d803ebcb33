#include "base/check.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace morel {
namespace {

TEST(CheckDeathTest, PassingChecksDoNothing) {
  int evaluated = 0;
  MOREL_CHECK(1 + 1 == 2);
  MOREL_CHECK_MSG(true, absl::StrCat("never built ", ++evaluated));
  EXPECT_EQ(evaluated, 0);  // the message is evaluated only on failure
}

TEST(CheckDeathTest, FailedCheckNamesTheCondition) {
  int x = 3;
  EXPECT_DEATH(MOREL_CHECK(x == 4),
               "morel: check failed at base/check_test.cc:[0-9]+: x == 4");
}

TEST(CheckDeathTest, FailedCheckWritesTheMessage) {
  int x = 3;
  EXPECT_DEATH(MOREL_CHECK_MSG(x < 0, absl::StrCat("x is ", x)),
               "check failed at .*: x < 0: x is 3");
}

[[noreturn]] void Unreachable(const std::string& why) { MOREL_UNREACHABLE(why); }

TEST(CheckDeathTest, UnreachableAborts) {
  EXPECT_DEATH(Unreachable("no such case"),
               "morel: unreachable code reached at .*: no such case");
}

}  // namespace
}  // namespace morel
