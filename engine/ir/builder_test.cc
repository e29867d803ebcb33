#include "engine/ir/builder.h"

#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "gtest/gtest.h"

namespace morel::ir {
namespace {

// The shape the partial evaluator emits for `a + b` on two guest values:
// tag checks, the fast path with an overflow guard, and a frame state with a
// parent (an inlined frame).
TEST(BuilderTest, BuildsVerifiedIrWithFrameStates) {
  Function f("add", {Type::kI64, Type::kI64, Type::kI64, Type::kI64}, {Type::kI64, Type::kI64});
  Builder b(&f);
  Block* entry = b.CreateEntryBlock();
  b.SetInsertionPoint(entry);
  Value* a = entry->params()[0];
  Value* a_tag = entry->params()[1];
  Value* c = entry->params()[2];
  Value* c_tag = entry->params()[3];
  FrameState* caller = b.CreateFrameState(DeoptKind::kEager, 1, 40, {{a, a_tag}}, {});
  FrameState* fs = b.CreateFrameState(DeoptKind::kEager, 2, 7,
                                      {{a, a_tag}, ValuePair::Illegal()}, {{c, c_tag}}, caller);
  Value* long_tag = b.I64(1);
  b.Guard(b.ICmp(Cond::kEq, a_tag, long_tag), fs, "left not a long");
  b.Guard(b.ICmp(Cond::kEq, c_tag, long_tag), fs, "right not a long");
  Value* sum = b.Binary(Opcode::kIadd, a, c);
  Value* overflow = b.Binary(Opcode::kIaddOverflows, a, c);
  Block* slow = b.CreateBlock();
  Block* done = b.CreateBlock();
  Value* result = b.AddBlockParam(done, Type::kI64);
  b.Br(overflow, slow, {}, done, {sum});
  EXPECT_TRUE(b.IsTerminated());
  b.SetInsertionPoint(slow);
  b.Deopt(fs, "overflow");
  b.SetInsertionPoint(done);
  b.Return({result, long_tag});

  ASSERT_TRUE(Verify(f).ok()) << Verify(f);
  EXPECT_EQ(sum->type(), Type::kI64);
  EXPECT_EQ(overflow->type(), Type::kI1);
  EXPECT_EQ(std::string(PrintFunction(f)),
            R"(func @add(i64, i64, i64, i64) -> (i64, i64) {
  fs0 = eager interpreter target 1 resume 40 locals [v0:v1] stack []
  fs1 = eager interpreter target 2 resume 7 locals [v0:v1, illegal] stack [v2:v3] parent fs0
block0(v0: i64, v1: i64, v2: i64, v3: i64):
  v4 = iconst.i64 1
  v5 = icmp eq v1, v4
  guard v5, fs1, "left not a long"
  v6 = icmp eq v3, v4
  guard v6, fs1, "right not a long"
  v7 = iadd v0, v2
  v8 = iadd_overflows v0, v2
  br v8, block1, block2(v7)
block1:
  deopt fs1, "overflow"
block2(v9: i64):
  return v9, v4
}
)");
}

TEST(BuilderTest, CallsMemoryAndConversions) {
  RuntimeRegistry registry;
  auto callee = registry.Register(
      {"box", nullptr, {{Type::kI64}, {Type::kI64, Type::kI64}}, RuntimeEffects::kMayDeopt});
  ASSERT_TRUE(callee.ok());
  Function f("calls", {Type::kPtr}, {Type::kI64});
  Builder b(&f);
  Block* entry = b.CreateEntryBlock();
  b.SetInsertionPoint(entry);
  Value* x = b.Load(Type::kI32, entry->params()[0], 4);
  Value* wide = b.Convert(Opcode::kSext, Type::kI64, x);
  FrameState* lazy = b.CreateFrameState(DeoptKind::kLazy, 1, 2, {}, {});
  std::vector<Value*> boxed = b.CallRuntime(*callee, {wide}, lazy);
  ASSERT_EQ(boxed.size(), 2u);
  std::vector<Value*> r = b.CallTarget(9, boxed, {Type::kI64, Type::kI64}, lazy);
  b.Store(r[0], entry->params()[0], 8);
  b.Return({r[1]});
  ASSERT_TRUE(Verify(f).ok()) << Verify(f);
  EXPECT_EQ(x->type(), Type::kI32);
  EXPECT_EQ(wide->type(), Type::kI64);
}

TEST(BuilderTest, ConstantsAreNormalized) {
  Function f("c", {}, {Type::kI32});
  Builder b(&f);
  b.SetInsertionPoint(b.CreateEntryBlock());
  Value* v = b.IConst(Type::kI32, 0xffffffffLL);
  b.Return({v});
  EXPECT_EQ(v->instruction()->imm(), -1);
  EXPECT_TRUE(Verify(f).ok());
}

}  // namespace
}  // namespace morel::ir
