// Concurrency: the interpreter specializes nodes on one thread while another
// reads the specialization state and walks the trees (what a compiler thread
// does), and several interpreter threads share call nodes. Run under
// --config=tsan.

#include <atomic>
#include <climits>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::Add;
using test_language::AddNode;
using test_language::Arg;
using test_language::Block;
using test_language::Const;
using test_language::DefineFunction;
using test_language::FunctionValue;
using test_language::Invoke;
using test_language::InvokeNode;
using test_language::TestRuntime;

// Runs `body` as guest code: on a thread the collector knows (a std::thread
// is not registered with it), with a large stack.
void RunGuestThread(std::function<void()> body) {
  heap::RunOnLargeStack(
      16u << 20, [](void* raw) { (*static_cast<std::function<void()>*>(raw))(); }, &body);
}

// Reads what a compiler would: every node, the state words, cache entries.
int Walk(Node& node, uint32_t& state_bits) {
  if (auto* add = dynamic_cast<AddNode*>(&node)) {
    state_bits |= add->specializer().state();
    state_bits |= add->specializer().ActiveNames().size();
  }
  if (auto* invoke = dynamic_cast<InvokeNode*>(&node)) {
    state_bits |= invoke->specializer().state();
  }
  int count = 1;
  node.ForEachChild([&](ChildSlot& slot) {
    if (Node* child = slot.get()) count += Walk(*child, state_bits);
  });
  return count;
}

TEST(SpecializationThreadingTest, ReadersSeeConsistentTreesWhileTheInterpreterSpecializes) {
  TestRuntime runtime;
  constexpr int kTargets = 40;
  CallTarget* callees[3];
  for (int i = 0; i < 3; ++i) callees[i] = DefineFunction(runtime, "callee", Const(i));
  std::vector<CallTarget*> targets;
  for (int i = 0; i < kTargets; ++i) {
    // f(a, b, g) = { a + b; g() }
    targets.push_back(DefineFunction(runtime, "f", Block(Add(Arg(0), Arg(1)), Invoke(Arg(2)))));
  }
  std::vector<int> initial_sizes;
  for (CallTarget* t : targets) initial_sizes.push_back(t->root_node()->CountNodes());

  std::atomic<bool> done{false};
  std::atomic<int> walks{0};
  std::thread reader([&] {
    while (!done.load(std::memory_order_acquire)) {
      for (size_t i = 0; i < targets.size(); ++i) {
        uint32_t bits = 0;
        int count = Walk(*targets[i]->root_node(), bits);
        // Nodes only appear (cache entries), never vanish.
        EXPECT_GE(count, initial_sizes[i]);
        EXPECT_LE(count, initial_sizes[i] + 2);  // at most kLimit entries
      }
      walks.fetch_add(1, std::memory_order_relaxed);
    }
  });

  std::thread interpreter([&] {
    RunGuestThread([&] {
      const Value operands[][2] = {
          {Value::Long(1), Value::Long(2)},
          {Value::Double(0.5), Value::Long(2)},
          {Value::Long(INT64_MAX), Value::Long(1)},
          {Value::Long(3), Value::Long(4)},
      };
      for (int round = 0; round < 8; ++round) {
        for (int i = 0; i < kTargets; ++i) {
          const Value* ops = operands[(round + i) % 4];
          targets[i]->Call({ops[0], ops[1], FunctionValue(callees[(round + i) % 3])});
        }
      }
    });
  });
  interpreter.join();
  // Let the reader see the final trees at least once.
  int seen = walks.load();
  while (walks.load() < seen + 2) std::this_thread::yield();
  done.store(true, std::memory_order_release);
  reader.join();

  for (CallTarget* t : targets) {
    auto* block = static_cast<test_language::TlRootNode*>(t->root_node())->body();
    std::vector<Node*> statements;
    block->ForEachChild([&](ChildSlot& slot) { statements.push_back(slot.get()); });
    auto* add = static_cast<AddNode*>(statements[0]);
    // Every target saw the overflow: AddInt was excluded, or never activated
    // because a double came first.
    EXPECT_FALSE(add->specializer().IsActive<test_language::AddInt>());
    EXPECT_TRUE(add->specializer().IsActive<test_language::AddWide>());
    auto* invoke = static_cast<InvokeNode*>(statements[1]);
    EXPECT_TRUE(invoke->specializer().IsActive<test_language::InvokeIndirect>());
  }
}

TEST(SpecializationThreadingTest, InterpretersRacingOnOneNodeAgreeOnItsState) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Add(Arg(0), Arg(1)));
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      RunGuestThread([&] {
        for (int i = 0; i < 200; ++i) {
          Value left = (i + t) % 2 == 0 ? Value::Long(i) : Value::Double(i);
          f->Call({left, Value::Long(1)});
        }
      });
    });
  }
  for (std::thread& thread : threads) thread.join();
  auto* add = static_cast<AddNode*>(static_cast<test_language::TlRootNode*>(f->root_node())->body());
  // Whichever thread specialized first decides: AddWide also takes longs,
  // so AddInt is active only if a long came first.
  std::string names = add->specializer().ActiveNames();
  EXPECT_TRUE(names == "AddInt,AddWide" || names == "AddWide") << names;
  // One report per activation after the first, however many threads raced
  // into the slow path with stale states.
  EXPECT_EQ(runtime.polymorphic_report_count(), add->specializer().ActiveCount() - 1);
}

TEST(SpecializationThreadingTest, ConcurrentCallsMakeOneSplitDecisionPerCallNode) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(1));
  std::unique_ptr<DirectCallNode> call = DirectCallNode::Create(f);
  f->set_needs_split(true);
  constexpr int kThreads = 4;
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      RunGuestThread([&] {
        ready.fetch_add(1);
        while (ready.load() < kThreads) std::this_thread::yield();
        for (int i = 0; i < 50; ++i) call->Call({});
      });
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(runtime.direct_call_consultations().size(), 1u);
  // Profiling counters are approximate under concurrency (plain
  // load-and-store, as in Truffle): no exact totals here.
  EXPECT_GT(call->call_count(), 0);
  EXPECT_LE(call->call_count(), kThreads * 50);
}

}  // namespace
}  // namespace morel
