#include "engine/codegen/code_cache.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

// The permission string ("r-xp") of the mapping containing `p`, or "" if
// nothing is mapped there.
std::string Protection(const void* p) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  while (std::getline(maps, line)) {
    unsigned long lo, hi;
    char perms[8] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %7s", &lo, &hi, perms) == 3 && a >= lo && a < hi) {
      return perms;
    }
  }
  return "";
}

std::vector<uint8_t> Bytes(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i);
  return v;
}

TEST(CodeCacheTest, InstalledCodeIsExecutableAndNeverWritable) {
  CodeCache cache;
  auto r = cache.InstallBytes(Bytes(100, 1));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Protection(r->start), "r-xp");
  EXPECT_EQ(std::memcmp(r->start, Bytes(100, 1).data(), 100), 0);
  EXPECT_EQ(r->mapped_size % CodeCache::PageSize(), 0u);
  // Spanning several pages: every page is r-x.
  auto big = cache.InstallBytes(Bytes(3 * CodeCache::PageSize() + 5, 2));
  ASSERT_TRUE(big.ok());
  for (size_t off = 0; off < big->mapped_size; off += CodeCache::PageSize()) {
    EXPECT_EQ(Protection(big->start + off), "r-xp") << off;
  }
  EXPECT_EQ(cache.live_regions(), 2u);
}

TEST(CodeCacheTest, FreedCodeIsInaccessibleThenReused) {
  CodeCache cache;
  auto a = cache.InstallBytes(Bytes(64, 3));
  ASSERT_TRUE(a.ok());
  const uint8_t* start = a->start;
  ASSERT_TRUE(cache.Free(start).ok());
  EXPECT_EQ(Protection(start), "---p");
  EXPECT_EQ(cache.cached_free_bytes(), a->mapped_size);
  EXPECT_FALSE(cache.Free(start).ok());  // not live any more
  auto b = cache.InstallBytes(Bytes(80, 4));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->start, start);
  EXPECT_EQ(Protection(start), "r-xp");
  EXPECT_EQ(start[0], 4);
  EXPECT_EQ(cache.cached_free_bytes(), 0u);
}

TEST(CodeCacheTest, GenerationCountsInstallsAndFrees) {
  CodeCache cache;
  const uint64_t g0 = cache.generation();
  auto a = cache.InstallBytes(Bytes(64, 6));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(cache.generation(), g0 + 1);
  ASSERT_TRUE(cache.Free(a->start).ok());
  EXPECT_EQ(cache.generation(), g0 + 2);
  // Failures change nothing: code is where it was.
  EXPECT_FALSE(cache.Free(a->start).ok());
  EXPECT_FALSE(cache.InstallBytes({}).ok());
  EXPECT_EQ(cache.generation(), g0 + 2);
  // Code replaced at the same address: the only sign of it.
  auto b = cache.InstallBytes(Bytes(64, 7));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->start, a->start);
  EXPECT_EQ(cache.generation(), g0 + 3);
}

TEST(CodeCacheTest, FreedCodeBeyondTheCacheLimitIsUnmapped) {
  CodeCache cache(CodeCacheOptions{.max_cached_free_bytes = 0});
  auto a = cache.InstallBytes(Bytes(64, 5));
  ASSERT_TRUE(a.ok());
  const uint8_t* start = a->start;
  ASSERT_TRUE(cache.Free(start).ok());
  EXPECT_EQ(Protection(start), "");
  EXPECT_EQ(cache.live_regions(), 0u);
}

TEST(CodeCacheTest, LookupFindsTheRegionOfAPc) {
  CodeCache cache;
  auto a = cache.InstallBytes(Bytes(64, 6));
  ASSERT_TRUE(a.ok());
  auto found = cache.Lookup(a->start + 10);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->start, a->start);
  EXPECT_FALSE(cache.Lookup(a->start + 64).ok());
}

TEST(CodeCacheTest, InstallAppliesRelocations) {
  CodeBuffer buf;
  Label self = buf.NewLabel();
  buf.Bind(self);
  buf.Emit64(0);
  buf.AddLabelFixup(FixupKind::kAbs64, 0, self);
  ASSERT_TRUE(buf.ResolveLabels().ok());
  CodeCache cache;
  auto r = cache.Install(buf);
  ASSERT_TRUE(r.ok());
  uint64_t v;
  std::memcpy(&v, r->start, 8);
  EXPECT_EQ(v, reinterpret_cast<uint64_t>(r->start));
}

TEST(CodeCacheTest, ConcurrentInstallAndFree) {
  CodeCache cache(CodeCacheOptions{.max_cached_free_bytes = 8 * 4096});
  std::vector<std::thread> threads;
  std::vector<int> errors(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t]() {
      for (int i = 0; i < 200; ++i) {
        std::vector<uint8_t> bytes = Bytes(50 + (i % 3) * 5000, static_cast<uint8_t>(t * 31 + i));
        auto r = cache.InstallBytes(bytes);
        if (!r.ok() || std::memcmp(r->start, bytes.data(), bytes.size()) != 0) ++errors[t];
        if (r.ok() && !cache.Free(r->start).ok()) ++errors[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(errors, std::vector<int>(4, 0));
  EXPECT_EQ(cache.live_regions(), 0u);
  EXPECT_LE(cache.cached_free_bytes(), 8u * 4096);
}

}  // namespace
}  // namespace morel::codegen
