// Links GMP and Boehm GC through their wrappers and exercises each once.
#include <gmp.h>

#include "gc.h"
#include "gtest/gtest.h"

namespace {

TEST(GmpTest, MultipliesBeyond64Bits) {
  mpz_t a, b, product;
  mpz_init_set_str(a, "3000000000000", 10);
  mpz_init_set_str(b, "4000000000000", 10);
  mpz_init(product);
  mpz_mul(product, a, b);
  char* text = mpz_get_str(nullptr, 10, product);
  EXPECT_STREQ(text, "12000000000000000000000000");
  void (*free_function)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_function);
  free_function(text, strlen(text) + 1);
  mpz_clears(a, b, product, nullptr);
}

TEST(BoehmGcTest, CollectsUnreachableMemory) {
  GC_INIT();
  for (int i = 0; i < 100000; ++i) {
    void* garbage = GC_MALLOC(1024);
    ASSERT_NE(garbage, nullptr);
  }
  GC_gcollect();
  // 100 MB were allocated; a collecting heap stays far below that.
  EXPECT_LT(GC_get_heap_size(), 64u << 20);
}

}  // namespace
