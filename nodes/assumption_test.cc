// Assumption, CyclicAssumption and CodeDependencies on their own:
// registration, invalidation, refusal at installation, lifetimes in either
// order, and installation racing with invalidation.

#include "nodes/assumption.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace morel {
namespace {

TEST(AssumptionTest, IsValidUntilInvalidated) {
  Assumption assumption("stable");
  EXPECT_TRUE(assumption.IsValid());
  EXPECT_EQ(assumption.name(), "stable");
  assumption.Invalidate("changed");
  EXPECT_FALSE(assumption.IsValid());
  assumption.Invalidate("again");  // idempotent
  EXPECT_FALSE(assumption.IsValid());
}

TEST(AssumptionTest, InvalidationClearsTheCellAndRunsTheHandlerOnce) {
  Assumption a("a");
  Assumption b("b");
  CodeDependencies code;
  EXPECT_TRUE(code.Add(&a));
  EXPECT_TRUE(code.Add(&b));
  EXPECT_TRUE(code.Add(&a));  // recorded once
  EXPECT_EQ(code.assumptions().size(), 2u);
  std::vector<std::string> reasons;
  bool installed = false;
  std::string refused;
  ASSERT_TRUE(code.InstallIfValid([&](const std::string& r) { reasons.push_back(r); },
                                  [&] { installed = true; }, &refused));
  EXPECT_TRUE(installed);
  EXPECT_EQ(a.dependent_count(), 1);
  EXPECT_EQ(b.dependent_count(), 1);
  EXPECT_EQ(*code.validity_address(), 1);

  b.Invalidate("b changed");
  EXPECT_FALSE(code.IsValid());
  EXPECT_EQ(*code.validity_address(), 0);
  EXPECT_EQ(reasons, std::vector<std::string>{"b changed"});
  // Unregistered from the other assumption too: no second notification.
  EXPECT_EQ(a.dependent_count(), 0);
  a.Invalidate("a changed");
  EXPECT_EQ(reasons.size(), 1u);
}

TEST(AssumptionTest, InstallationIsRefusedOnceAnAssumptionIsInvalid) {
  Assumption a("a");
  CodeDependencies code;
  EXPECT_TRUE(code.Add(&a));
  a.Invalidate("before installation");
  bool installed = false;
  bool notified = false;
  std::string refused;
  EXPECT_FALSE(code.InstallIfValid([&](const std::string&) { notified = true; },
                                   [&] { installed = true; }, &refused));
  EXPECT_FALSE(installed);
  EXPECT_FALSE(notified);
  EXPECT_FALSE(code.IsValid());
  EXPECT_EQ(refused, "assumption a invalidated during compilation");
  EXPECT_EQ(a.dependent_count(), 0);
}

TEST(AssumptionTest, AddReportsAnAlreadyInvalidAssumption) {
  Assumption a("a");
  a.Invalidate("");
  CodeDependencies code;
  EXPECT_FALSE(code.Add(&a));
}

TEST(AssumptionTest, EmptyReasonNamesTheAssumption) {
  Assumption a("f stable");
  CodeDependencies code;
  code.Add(&a);
  std::string reason;
  std::string refused;
  ASSERT_TRUE(code.InstallIfValid([&](const std::string& r) { reason = r; }, [] {}, &refused));
  a.Invalidate("");
  EXPECT_EQ(reason, "assumption f stable invalidated");
}

TEST(AssumptionTest, CodeCanBeInvalidatedAlone) {
  Assumption a("a");
  CodeDependencies code;
  code.Add(&a);
  int notified = 0;
  std::string refused;
  ASSERT_TRUE(code.InstallIfValid([&](const std::string&) { ++notified; }, [] {}, &refused));
  code.Invalidate("dropped");
  EXPECT_FALSE(code.IsValid());
  EXPECT_TRUE(a.IsValid());
  EXPECT_EQ(a.dependent_count(), 0);
  EXPECT_EQ(notified, 1);
}

TEST(AssumptionTest, DestructionInEitherOrder) {
  std::string refused;
  {
    auto a = std::make_unique<Assumption>("a");
    auto code = std::make_unique<CodeDependencies>();
    code->Add(a.get());
    ASSERT_TRUE(code->InstallIfValid([](const std::string&) {}, [] {}, &refused));
    code.reset();  // unregisters
    EXPECT_EQ(a->dependent_count(), 0);
    a->Invalidate("after the code died");  // must not touch the dead code
  }
  {
    auto a = std::make_unique<Assumption>("a");
    auto code = std::make_unique<CodeDependencies>();
    code->Add(a.get());
    ASSERT_TRUE(code->InstallIfValid([](const std::string&) {}, [] {}, &refused));
    a.reset();     // the code forgets it
    code.reset();  // under ASan: no use after free
  }
  {
    // Refused code was never registered: it forgets its assumptions at once.
    auto a = std::make_unique<Assumption>("a");
    auto code = std::make_unique<CodeDependencies>();
    code->Add(a.get());
    a->Invalidate("before installation");
    ASSERT_FALSE(code->InstallIfValid([](const std::string&) {}, [] {}, &refused));
    a.reset();
    code.reset();  // under ASan: no use after free
  }
  {
    // Never installed, invalidated alone after its assumption died.
    auto a = std::make_unique<Assumption>("a");
    auto code = std::make_unique<CodeDependencies>();
    code->Add(a.get());
    a.reset();
    code->Invalidate("all code");  // under ASan: no use after free
    EXPECT_FALSE(code->IsValid());
  }
  {
    // Compiled but discarded before the installation attempt.
    auto a = std::make_unique<Assumption>("a");
    auto code = std::make_unique<CodeDependencies>();
    code->Add(a.get());
    a.reset();
    code.reset();  // under ASan: no use after free
  }
}

TEST(CyclicAssumptionTest, InvalidateStartsANewGeneration) {
  CyclicAssumption stable("f stable");
  Assumption* first = stable.Get();
  ASSERT_NE(first, nullptr);
  CodeDependencies code;
  code.Add(first);
  std::string reason;
  std::string refused;
  ASSERT_TRUE(code.InstallIfValid([&](const std::string& r) { reason = r; }, [] {}, &refused));
  stable.Invalidate("f redefined");
  EXPECT_FALSE(first->IsValid());
  EXPECT_EQ(reason, "f redefined");
  Assumption* second = stable.Get();
  EXPECT_NE(second, first);
  EXPECT_TRUE(second->IsValid());
  EXPECT_EQ(second->name(), "f stable");
}

TEST(CyclicAssumptionTest, KeepAllKeepsEveryGeneration) {
  CyclicAssumption stable("f stable");
  Assumption* first = stable.Get();
  for (int i = 0; i < 3; ++i) stable.Invalidate("again");
  EXPECT_EQ(stable.kept_generations(), 4u);
  EXPECT_FALSE(first->IsValid());  // still a live object
}

TEST(CyclicAssumptionTest, KeepReferencedKeepsOnlyWhatHoldersHold) {
  CyclicAssumption stable("f stable", CyclicAssumption::Generations::kKeepReferenced);
  std::shared_ptr<Assumption> held = stable.GetShared();
  std::weak_ptr<Assumption> dropped;
  {
    std::shared_ptr<Assumption> second;
    stable.Invalidate("f redefined");
    second = stable.GetShared();
    dropped = second;
    EXPECT_NE(second.get(), held.get());
    EXPECT_EQ(stable.Get(), second.get());
  }
  // Installed code depending on a generation that is freed later.
  CodeDependencies code;
  code.Add(stable.Get());
  std::string reason;
  std::string refused;
  ASSERT_TRUE(code.InstallIfValid([&](const std::string& r) { reason = r; }, [] {}, &refused));
  for (int i = 0; i < 1000; ++i) stable.Invalidate("f redefined");
  EXPECT_EQ(stable.kept_generations(), 1u);
  EXPECT_TRUE(dropped.expired());  // nobody held the second generation
  EXPECT_FALSE(held->IsValid());   // the held one lives, invalid
  EXPECT_FALSE(code.IsValid());
  EXPECT_EQ(reason, "f redefined");
}

// Installation racing with invalidation: whatever the interleaving, code is
// never left installed with a valid cell while its assumption is invalid.
TEST(AssumptionTest, InstallationRacingWithInvalidationNeverLeavesValidStaleCode) {
  for (int round = 0; round < 50; ++round) {
    Assumption a("a");
    constexpr int kCodes = 8;
    std::vector<std::unique_ptr<CodeDependencies>> codes;
    std::vector<std::atomic<bool>> installed(kCodes);
    std::vector<std::atomic<bool>> notified(kCodes);
    for (int i = 0; i < kCodes; ++i) {
      codes.push_back(std::make_unique<CodeDependencies>());
      codes.back()->Add(&a);
    }
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < kCodes; ++i) {
      threads.emplace_back([&, i] {
        while (!go.load()) {
        }
        std::string refused;
        codes[i]->InstallIfValid([&, i](const std::string&) { notified[i] = true; },
                                 [&, i] { installed[i] = true; }, &refused);
      });
    }
    threads.emplace_back([&] {
      while (!go.load()) {
      }
      a.Invalidate("raced");
    });
    go = true;
    for (std::thread& t : threads) t.join();
    EXPECT_FALSE(a.IsValid());
    for (int i = 0; i < kCodes; ++i) {
      EXPECT_FALSE(codes[i]->IsValid()) << i;
      // Installed code was installed before the invalidation, so it was
      // notified; refused code never was.
      EXPECT_EQ(installed[i].load(), notified[i].load()) << i;
    }
  }
}

}  // namespace
}  // namespace morel
