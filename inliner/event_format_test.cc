// The TraceInlining line layout (TruffleCompilerRuntime#formatEvent with
// widths 12 / 60 / 0) and Java's "%8.2f".

#include "inliner/event_format.h"

#include <cmath>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace morel::inliner {
namespace {

TEST(FormatJavaFixedTest, RoundsTheShortestDecimalHalfUp) {
  // 0.125 is exact in binary: C rounds it to even ("0.12"), Java up.
  EXPECT_EQ(FormatJavaFixed(0.125, 8, 2), "    0.13");
  // 1.005 is 1.00499999999999989... in binary; Java rounds its digits "1.005".
  EXPECT_EQ(FormatJavaFixed(1.005, 8, 2), "    1.01");
  EXPECT_EQ(FormatJavaFixed(2.0 / 3.0, 8, 2), "    0.67");
  EXPECT_EQ(FormatJavaFixed(1.0 / 3.0, 8, 2), "    0.33");
  EXPECT_EQ(FormatJavaFixed(0.5, 8, 2), "    0.50");
  EXPECT_EQ(FormatJavaFixed(10.0, 8, 2), "   10.00");
  EXPECT_EQ(FormatJavaFixed(0.0, 8, 2), "    0.00");
  EXPECT_EQ(FormatJavaFixed(1e-9, 8, 2), "    0.00");
  EXPECT_EQ(FormatJavaFixed(0.005, 8, 2), "    0.01");
  EXPECT_EQ(FormatJavaFixed(0.0049, 8, 2), "    0.00");
}

TEST(FormatJavaFixedTest, CarriesIntoNewDigits) {
  EXPECT_EQ(FormatJavaFixed(99.995, 8, 2), "  100.00");
  EXPECT_EQ(FormatJavaFixed(9.999, 0, 2), "10.00");
  EXPECT_EQ(FormatJavaFixed(123456.789, 8, 2), "123456.79");
  EXPECT_EQ(FormatJavaFixed(1e20, 0, 2), "100000000000000000000.00");
}

TEST(FormatJavaFixedTest, SignsAndSpecialValues) {
  EXPECT_EQ(FormatJavaFixed(-0.5, 8, 2), "   -0.50");
  EXPECT_EQ(FormatJavaFixed(-0.125, 8, 2), "   -0.13");
  EXPECT_EQ(FormatJavaFixed(-0.0, 8, 2), "   -0.00");
  EXPECT_EQ(FormatJavaFixed(std::numeric_limits<double>::quiet_NaN(), 8, 2), "     NaN");
  EXPECT_EQ(FormatJavaFixed(std::numeric_limits<double>::infinity(), 8, 2), "Infinity");
  EXPECT_EQ(FormatJavaFixed(-std::numeric_limits<double>::infinity(), 0, 2), "-Infinity");
}

TEST(FormatPropertyValueTest, IntegerDoubleBoolean) {
  EXPECT_EQ(FormatPropertyValue(7), "     7");
  EXPECT_EQ(FormatPropertyValue(-1234567), "-1234567");
  EXPECT_EQ(FormatPropertyValue(1.5), "    1.50");
  EXPECT_EQ(FormatPropertyValue(true), "true");
  EXPECT_EQ(FormatPropertyValue(false), "false");
}

TEST(FormatEventTest, ColumnsAndProperties) {
  EXPECT_EQ(FormatEvent(0, "Inline start", "main", {{"IR Nodes", 12}, {"Forced", false}}),
            "Inline start main" + std::string(56, ' ') + "|IR Nodes     12|Forced false");
  EXPECT_EQ(FormatEvent(2, "Cutoff", "f", {{"Frequency", 0.25}}),
            "Cutoff" + std::string(6, ' ') + std::string(5, ' ') + "f" + std::string(55, ' ') +
                "|Frequency     0.25");
  // No properties: the padded subject ends the line.
  EXPECT_EQ(FormatEvent(1, "Indirect", "<indirect>", {}),
            "Indirect" + std::string(4 + 3, ' ') + "<indirect>" + std::string(48, ' '));
}

TEST(FormatEventTest, LongTextsAndDeepIndentStillSeparate) {
  EXPECT_EQ(FormatEvent(0, "a very long event", std::string(70, 'x'), {}),
            "a very long event " + std::string(70, 'x'));
  // Depth 40: the subject column would be negative; it is at least 1 wide.
  EXPECT_EQ(FormatEvent(40, "E", "s", {{"D", 1}}),
            "E" + std::string(11, ' ') + std::string(81, ' ') + "s|D      1");
}

}  // namespace
}  // namespace morel::inliner
