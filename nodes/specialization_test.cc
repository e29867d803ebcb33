// Specializer: activation in declaration order, guards, RewriteOn,
// `replaces`, inline-cache limits, ActiveNames and the fallback.

#include "nodes/specialization.h"

#include <climits>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::AddInt;
using test_language::AddNode;
using test_language::AddString;
using test_language::AddWide;
using test_language::Arg;
using test_language::DefineFunction;
using test_language::FunctionValue;
using test_language::InvokeDirect;
using test_language::InvokeIndirect;
using test_language::InvokeNode;
using test_language::MakeString;
using test_language::StringOf;
using test_language::TestRuntime;
using test_language::TlError;
using test_language::TlRootNode;

std::string Names(const AddNode& node) { return node.specializer().ActiveNames(); }

TEST(SpecializerTest, StartsUninitialized) {
  AddNode add(nullptr, nullptr);
  EXPECT_EQ(add.specializer().state(), 0u);
  EXPECT_EQ(add.specializer().ActiveCount(), 0);
  EXPECT_EQ(Names(add), "");
  EXPECT_EQ(AddNode::Specializations::kCount, 3);
  EXPECT_EQ(AddNode::Specializations::IndexOf<AddWide>(), 1);
}

TEST(SpecializerTest, ActivatesTheFirstApplicableSpecialization) {
  AddNode add(nullptr, nullptr);
  EXPECT_EQ(add.ExecuteWith(Value::Long(1), Value::Long(2)), Value::Long(3));
  EXPECT_TRUE(add.specializer().IsActive<AddInt>());
  EXPECT_FALSE(add.specializer().IsActive<AddWide>());  // also applies, but later
  EXPECT_EQ(add.specializer().state(), AddNode::Specializations::ActiveBit(0));
  EXPECT_EQ(Names(add), "AddInt");
}

TEST(SpecializerTest, GuardsSelectAmongActiveSpecializations) {
  AddNode add(nullptr, nullptr);
  Value joined = add.ExecuteWith(MakeString("a"), Value::Long(1));
  EXPECT_EQ(std::string(StringOf(joined)), "a1");
  EXPECT_EQ(Names(add), "AddString");  // nothing before it applied
  EXPECT_EQ(add.ExecuteWith(Value::Double(1.5), Value::Long(1)), Value::Double(2.5));
  EXPECT_EQ(Names(add), "AddWide,AddString");
  EXPECT_EQ(add.ExecuteWith(Value::Long(1), Value::Long(1)), Value::Double(2));
  EXPECT_EQ(Names(add), "AddWide,AddString");  // AddWide's guard held: no new one
  EXPECT_EQ(std::string(StringOf(add.ExecuteWith(Value::Long(1), MakeString("b")))), "1b");
  EXPECT_EQ(add.specializer().ActiveCount(), 2);
}

TEST(SpecializerTest, ActiveNamesListsInDeclarationOrder) {
  AddNode add(nullptr, nullptr);
  add.ExecuteWith(MakeString("a"), MakeString("b"));
  add.ExecuteWith(Value::Double(1), Value::Double(2));
  add.ExecuteWith(Value::Long(1), Value::Long(2));  // AddWide handles it
  EXPECT_EQ(Names(add), "AddWide,AddString");
  AddNode add2(nullptr, nullptr);
  add2.ExecuteWith(MakeString("a"), MakeString("b"));
  add2.ExecuteWith(Value::Long(1), Value::Long(2));
  add2.ExecuteWith(Value::Double(1), Value::Double(2));
  EXPECT_EQ(Names(add2), "AddInt,AddWide,AddString");
}

TEST(SpecializerTest, RewriteOnExcludesAndRespecializes) {
  AddNode add(nullptr, nullptr);
  add.ExecuteWith(Value::Long(1), Value::Long(2));
  ASSERT_EQ(Names(add), "AddInt");

  // Overflow: AddInt's body asks to leave; its result is discarded.
  Value wide = add.ExecuteWith(Value::Long(INT64_MAX), Value::Long(1));
  EXPECT_EQ(wide, Value::Double(static_cast<double>(INT64_MAX) + 1.0));
  EXPECT_FALSE(add.specializer().IsActive<AddInt>());
  EXPECT_TRUE(add.specializer().IsExcluded<AddInt>());
  EXPECT_TRUE(add.specializer().IsActive<AddWide>());
  EXPECT_EQ(Names(add), "AddWide");

  // Small longs never go back to the excluded specialization.
  EXPECT_EQ(add.ExecuteWith(Value::Long(1), Value::Long(2)), Value::Double(3));
  EXPECT_TRUE(add.specializer().IsExcluded<AddInt>());
  EXPECT_EQ(Names(add), "AddWide");
}

TEST(SpecializerTest, RewriteOnInTheFirstExecution) {
  AddNode add(nullptr, nullptr);
  EXPECT_EQ(add.ExecuteWith(Value::Long(INT64_MIN), Value::Long(-1)),
            Value::Double(static_cast<double>(INT64_MIN) - 1.0));
  EXPECT_TRUE(add.specializer().IsExcluded<AddInt>());
  EXPECT_EQ(Names(add), "AddWide");
}

// TryInline (OperatorNode's call-free path): the inline specializations'
// result, or nothing, and never a change of state: what would change it
// (the slow path, a rewrite) is left to Execute.
TEST(SpecializerTest, TryInlineRunsOnlyActiveInlineSpecializationsAndLeavesRewritesToExecute) {
  AddNode add(nullptr, nullptr);
  auto& specializer = const_cast<AddNode::Specializations&>(add.specializer());
  EXPECT_FALSE(specializer.TryInline(add, Value::Long(1), Value::Long(2)).has_value());
  EXPECT_EQ(specializer.state(), 0u);  // nothing activated

  add.ExecuteWith(Value::Long(1), Value::Long(2));
  ASSERT_EQ(Names(add), "AddInt");
  EXPECT_EQ(specializer.TryInline(add, Value::Long(40), Value::Long(2)), Value::Long(42));
  // AddWide is not active (nor inline): no result, no activation.
  EXPECT_FALSE(specializer.TryInline(add, Value::Double(1), Value::Long(2)).has_value());
  // An overflow: AddInt's body rewrites; TryInline gives nothing and AddInt
  // stays active until Execute excludes it.
  const uint32_t before = specializer.state();
  EXPECT_FALSE(specializer.TryInline(add, Value::Long(INT64_MAX), Value::Long(1)).has_value());
  EXPECT_EQ(specializer.state(), before);
  EXPECT_EQ(add.ExecuteWith(Value::Long(INT64_MAX), Value::Long(1)),
            Value::Double(static_cast<double>(INT64_MAX) + 1.0));
  EXPECT_TRUE(add.specializer().IsExcluded<AddInt>());
}

// A node with two inline specializations that both hold for two longs:
// the first rewrites on overflow, the second would give another value.
class TwoInlineNode;
struct FirstLong {
  static constexpr absl::string_view kName = "FirstLong";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(c.IsLong(l), c.IsLong(r));
  }
  template <typename C>
  static typename C::V Body(C& c, TwoInlineNode&, typename C::V l, typename C::V r) {
    auto sum = c.AddOverflow(c.AsLong(l), c.AsLong(r));
    c.RewriteOn(sum.overflow);
    return c.BoxLong(sum.value);
  }
};
struct ThenLeft {
  static constexpr absl::string_view kName = "ThenLeft";
  static constexpr bool kInlineInInterpreter = true;
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(c.IsLong(l), c.Or(c.IsLong(r), c.HasTag(r, kDoubleTag)));
  }
  template <typename C>
  static typename C::V Body(C& c, TwoInlineNode&, typename C::V l, typename C::V) {
    return c.BoxLong(c.AsLong(l));
  }
};
class TwoInlineNode final : public Node {
 public:
  MOREL_NODE_KIND(TwoInlineNode)
  using Specializations = Specializer<TwoInlineNode, FirstLong, ThenLeft>;
  using Node::Node;
  [[noreturn]] static Value Fallback(TwoInlineNode&, Value, Value) { throw TlError("no"); }
  Specializations specializer;
};

// A rewrite ends TryInline even when a later active inline specialization
// would hold: that one's value would leave the rewritten one active.
TEST(SpecializerTest, TryInlineStopsAtARewriteBeforeTheNextActiveSpecialization) {
  TwoInlineNode node;
  TwoInlineNode::Specializations& s = node.specializer;
  EXPECT_EQ(s.Execute(node, Value::Long(1), Value::Long(2)), Value::Long(3));      // FirstLong
  EXPECT_EQ(s.Execute(node, Value::Long(5), Value::Double(0.5)), Value::Long(5));  // ThenLeft
  ASSERT_EQ(s.ActiveNames(), "FirstLong,ThenLeft");
  const uint32_t before = s.state();
  EXPECT_EQ(s.TryInline(node, Value::Long(40), Value::Long(2)), Value::Long(42));
  EXPECT_FALSE(s.TryInline(node, Value::Long(INT64_MAX), Value::Long(1)).has_value());
  EXPECT_EQ(s.state(), before);
  // Execute excludes FirstLong; ThenLeft answers from then on.
  EXPECT_EQ(s.Execute(node, Value::Long(INT64_MAX), Value::Long(1)), Value::Long(INT64_MAX));
  EXPECT_TRUE(s.IsExcluded<FirstLong>());
  EXPECT_EQ(s.TryInline(node, Value::Long(40), Value::Long(2)), Value::Long(40));
}

TEST(SpecializerTest, FallbackWhenNothingApplies) {
  AddNode add(nullptr, nullptr);
  try {
    add.ExecuteWith(Value::Boolean(true), Value::Long(1));
    FAIL() << "no type error";
  } catch (const TlError& error) {
    EXPECT_EQ(error.message(), "type error: true + 1");
  }
  EXPECT_EQ(add.specializer().state(), 0u);  // the fallback activates nothing

  add.ExecuteWith(Value::Long(1), Value::Long(1));
  EXPECT_THROW(add.ExecuteWith(Value::Long(1), Value::Boolean(false)), TlError);
  EXPECT_EQ(Names(add), "AddInt");
}

// The inline cache: InvokeDirect (limit 2) and InvokeIndirect, which
// replaces it.
class InlineCacheTest : public ::testing::Test {
 protected:
  InlineCacheTest() {
    for (int i = 0; i < 4; ++i) {
      callees_[i] = DefineFunction(runtime_, "callee" + std::to_string(i),
                                   test_language::Const(100 + i));
    }
    caller_ = DefineFunction(runtime_, "caller", test_language::Invoke(Arg(0)));
    invoke_ = static_cast<InvokeNode*>(
        static_cast<TlRootNode*>(caller_->root_node())->body());
  }
  Value CallWith(int callee) { return caller_->Call({FunctionValue(callees_[callee])}); }
  InvokeNode::Specializations& specializer() { return invoke_->specializer(); }
  int CacheSize() { return specializer().cache<InvokeDirect>().count(); }

  TestRuntime runtime_;
  CallTarget* callees_[4];
  CallTarget* caller_;
  InvokeNode* invoke_;
};

TEST_F(InlineCacheTest, AddsAnEntryPerCalleeUpToTheLimit) {
  EXPECT_EQ(CallWith(0), Value::Long(100));
  EXPECT_EQ(CacheSize(), 1);
  EXPECT_EQ(CallWith(0), Value::Long(100));
  EXPECT_EQ(CacheSize(), 1);  // the same callee hits its entry
  EXPECT_EQ(CallWith(1), Value::Long(101));
  EXPECT_EQ(CacheSize(), 2);
  EXPECT_EQ(std::string(specializer().ActiveNames()), "InvokeDirect");
  EXPECT_EQ(CallWith(0), Value::Long(100));
  EXPECT_EQ(CallWith(1), Value::Long(101));
  EXPECT_EQ(CacheSize(), 2);
  EXPECT_EQ(callees_[0]->call_count(), 3);
  EXPECT_EQ(callees_[1]->call_count(), 2);
}

TEST_F(InlineCacheTest, EachEntryCallsThroughItsOwnDirectCallNode) {
  CallWith(0);
  CallWith(1);
  CallWith(1);
  int entries = 0;
  for (auto* e = specializer().cache<InvokeDirect>().head.load(); e != nullptr; e = e->next) {
    ++entries;
    DirectCallNode* call = e->data.call.get();
    EXPECT_EQ(call->call_target(), e->data.target);
    EXPECT_EQ(call->call_count(), e->data.target == callees_[0] ? 1 : 2);
    EXPECT_EQ(e->data.target->single_call_node(), call);
  }
  EXPECT_EQ(entries, 2);
}

TEST_F(InlineCacheTest, GenericSpecializationReplacesTheCacheBeyondTheLimit) {
  const int uncached_nodes = invoke_->CountNodes();
  CallWith(0);
  CallWith(1);
  EXPECT_EQ(CallWith(2), Value::Long(102));
  EXPECT_TRUE(specializer().IsActive<InvokeIndirect>());
  EXPECT_FALSE(specializer().IsActive<InvokeDirect>());
  EXPECT_TRUE(specializer().IsExcluded<InvokeDirect>());
  EXPECT_EQ(std::string(specializer().ActiveNames()), "InvokeIndirect");
  // Replaced: the entries are dropped from the cache (Truffle drops them),
  // but kept alive on the retired chain, never having grown past the limit.
  EXPECT_EQ(CacheSize(), 0);
  int retired = 0;
  ASSERT_NE(specializer().cache<InvokeDirect>().retired, nullptr);
  ASSERT_EQ(specializer().cache<InvokeDirect>().retired->size(), 1u);  // one chain
  for (auto* e = (*specializer().cache<InvokeDirect>().retired)[0]; e != nullptr; e = e->next) {
    ++retired;
  }
  EXPECT_EQ(retired, 2);
  EXPECT_EQ(invoke_->CountNodes(), uncached_nodes);  // retired entries are not children

  // Cached callees now go through the indirect call too.
  DirectCallNode* cached_call = (*specializer().cache<InvokeDirect>().retired)[0]->data.call.get();
  int cached_calls = cached_call->call_count();
  EXPECT_EQ(CallWith(0), Value::Long(100));
  EXPECT_EQ(CallWith(1), Value::Long(101));
  EXPECT_EQ(CallWith(3), Value::Long(103));
  EXPECT_EQ(cached_call->call_count(), cached_calls);
  EXPECT_EQ(std::string(specializer().ActiveNames()), "InvokeIndirect");
}

TEST_F(InlineCacheTest, CacheEntryChildrenAreAdopted) {
  CallWith(0);
  CallWith(1);
  for (auto* e = specializer().cache<InvokeDirect>().head.load(); e != nullptr; e = e->next) {
    DirectCallNode* call = e->data.call.get();
    EXPECT_EQ(call->parent(), invoke_);
    EXPECT_EQ(call->GetRootNode(), caller_->root_node());
  }
  // And visible to tree walks.
  int direct_call_children = 0;
  invoke_->ForEachChild([&](ChildSlot& slot) {
    if (dynamic_cast<DirectCallNode*>(slot.get()) != nullptr) ++direct_call_children;
  });
  EXPECT_EQ(direct_call_children, 2);
}

TEST_F(InlineCacheTest, FallbackForNonFunctions) {
  EXPECT_THROW(caller_->Call({Value::Long(1)}), TlError);
  EXPECT_EQ(specializer().state(), 0u);
  EXPECT_EQ(CacheSize(), 0);
}

}  // namespace
}  // namespace morel
