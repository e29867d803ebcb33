#include "languages/sl/runtime/big_integer.h"

#include <malloc.h>

#include <cstdint>

#include "gtest/gtest.h"
#include "nodes/heap.h"
#include "nodes/value.h"

namespace morel::sl {
namespace {

class BigIntegerTest : public ::testing::Test {
 protected:
  void SetUp() override { InitializeBigIntegers(); }
};

TEST_F(BigIntegerTest, ResultsInTheLongRangeAreLongs) {
  const Value two40 = Value::Long(int64_t{1} << 40);
  const Value two80 = BigMul(two40, two40);
  EXPECT_FALSE(two80.IsLong());
  EXPECT_EQ(NumberToString(two80), "1208925819614629174706176");
  const Value back = BigDiv(two80, two40);
  ASSERT_TRUE(back.IsLong());
  EXPECT_EQ(back.AsLong(), int64_t{1} << 40);
  EXPECT_EQ(BigCompare(BigSub(two80, two80), Value::Long(0)), 0);
}

TEST_F(BigIntegerTest, ParsesAndPrintsLongLiterals) {
  const char* digits = "-123456789012345678901234567890123456789";
  EXPECT_EQ(NumberToString(NumberFromDecimal(digits + 1)), digits + 1);
  EXPECT_EQ(NumberToString(BigSub(Value::Long(0), NumberFromDecimal(digits + 1))), digits);
}

// Products of megabytes go through GMP's FFT multiplication, whose scratch
// blocks point to each other. When GMP's memory was collectable and
// unscanned, a collection during such a product freed blocks GMP was
// using (the launcher crashed in mpn_mul_fft on a 4 MB number).
TEST_F(BigIntegerTest, ProductsOfMegabytesSurviveCollections) {
  // 3^(2^k), in an array on the stack (the collector scans it; a
  // std::vector's buffer it would not).
  Value powers[25];
  powers[0] = Value::Long(3);
  for (int k = 1; k <= 24; ++k) {
    heap::Collect();
    powers[k] = BigMul(powers[k - 1], powers[k - 1]);
  }
  // 3^4096 has floor(4096 log10 3) + 1 = 1955 digits.
  EXPECT_EQ(NumberToString(powers[12]).size(), 1955u);
  for (int k = 24; k >= 20; --k) {
    heap::Collect();
    EXPECT_EQ(BigCompare(BigDiv(powers[k], powers[k - 1]), powers[k - 1]), 0) << k;
  }
}

TEST_F(BigIntegerTest, GmpScratchMemoryIsFreed) {
  Value x = Value::Long(7);
  for (int k = 0; k < 16; ++k) x = BigMul(x, x);  // about 5 KB
  heap::Collect();
  const uint64_t heap_before = heap::GetStatistics().heap_bytes;
  const size_t malloc_before = mallinfo2().uordblks;
  // 10 MB of products and their scratch, garbage at once: GMP's memory
  // (malloc's) is all freed, and the collected results are collected.
  for (int i = 0; i < 2000; ++i) BigAdd(BigMul(x, x), Value::Long(i));
  heap::Collect();
  EXPECT_LT(mallinfo2().uordblks, malloc_before + (1u << 20));
  EXPECT_LT(heap::GetStatistics().heap_bytes, heap_before + (16u << 20));
}

}  // namespace
}  // namespace morel::sl
