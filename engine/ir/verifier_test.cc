#include "engine/ir/verifier.h"

#include <string>

#include "engine/ir/builder.h"
#include "engine/ir/parser.h"
#include "gtest/gtest.h"

namespace morel::ir {
namespace {

// Parses `text` (which must parse) and returns the verifier's message ("" if
// it verifies).
std::string VerifyText(const std::string& text) {
  RuntimeRegistry registry;
  auto f = ParseFunctions(text, &registry);
  EXPECT_TRUE(f.ok()) << f.status();
  if (!f.ok()) return "<parse error>";
  absl::Status s = Verify(*(*f).back());
  return s.ok() ? "" : std::string(s.message());
}

TEST(VerifierTest, AcceptsWellFormedIr) {
  EXPECT_EQ(VerifyText(R"(
func @ok(i64) -> (i64) {
  fs0 = eager interpreter target 1 resume 0 locals [v0:v0] stack []
block0(v0: i64):
  v1 = iconst.i64 1
  jump block1(v0)
block1(v2: i64):
  v3 = iadd v2, v1
  v4 = icmp slt v3, v1
  guard v4, fs0, "r"
  br v4, block1(v3), block2
block2:
  return v3
}
)"),
            "");
}

struct Case {
  const char* name;
  const char* text;
  const char* message;
};

class VerifierErrorTest : public testing::TestWithParam<Case> {};

TEST_P(VerifierErrorTest, ReportsTheError) {
  EXPECT_EQ(VerifyText(GetParam().text), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, VerifierErrorTest,
    testing::Values(
        Case{"OperandTypes",
             "func @f(i64, i32) -> () {\nblock0(v0: i64, v1: i32):\n  v2 = iadd v0, v1\n  "
             "return\n}",
             "block0: v2 = iadd v0, v1: operand types differ (i64 vs i32)"},
        Case{"OperandKind",
             "func @f(f64) -> () {\nblock0(v0: f64):\n  v1 = iadd v0, v0\n  return\n}",
             "block0: v1 = iadd v0, v0: operands must be i32 or i64, not f64"},
        Case{"SelectCondition",
             "func @f(i64) -> () {\nblock0(v0: i64):\n  v1 = select v0, v0, v0\n  return\n}",
             "block0: v1 = select v0, v0, v0: select condition must be i1, not i64"},
        Case{"Extend",
             "func @f(i64) -> () {\nblock0(v0: i64):\n  v1 = zext.i32 v0\n  return\n}",
             "block0: v1 = zext.i32 v0: cannot extend i64 to i32"},
        Case{"StoreType",
             "func @f(i64, ptr) -> () {\nblock0(v0: i64, v1: ptr):\n  store.i32 v0, v1, 0\n  "
             "return\n}",
             "block0: store.i32 v0, v1, 0: stored value is i64, not i32"},
        Case{"GuardCondition",
             "func @f(i64) -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [] "
             "stack []\nblock0(v0: i64):\n  guard v0, fs0, \"r\"\n  return\n}",
             "block0: guard v0, fs0, \"r\": operand must be i1, not i64"},
        Case{"ReturnTypes",
             "func @f(i32) -> (i64) {\nblock0(v0: i32):\n  return v0\n}",
             "block0: return v0: returns (i32) but the function returns (i64)"},
        Case{"EntryParams", "func @f(i64) -> () {\nblock0:\n  return\n}",
             "entry block0 parameters do not match the function's parameter types"},
        Case{"MissingTerminator",
             "func @f() -> () {\nblock0:\n  v0 = iconst.i64 1\n}",
             "block0 does not end in a terminator"},
        Case{"TerminatorInTheMiddle",
             "func @f() -> () {\nblock0:\n  return\n  return\n}",
             "block0: return: terminator is not the last instruction of its block"},
        Case{"BranchToEntry", "func @f() -> () {\nblock0:\n  jump block0\n}",
             "block0: jump block0: branches to the entry block"},
        Case{"ArgumentCount",
             "func @f() -> () {\nblock0:\n  jump block1\nblock1(v0: i64):\n  return\n}",
             "block0: jump block1: passes 0 arguments to block1, which has 1 parameters"},
        Case{"ArgumentType",
             "func @f(i32) -> () {\nblock0(v0: i32):\n  jump block1(v0)\nblock1(v1: "
             "i64):\n  return\n}",
             "block0: jump block1(v0): argument v0 is i32 but block1 parameter v1 is i64"},
        Case{"UseBeforeDefinition",
             "func @f() -> () {\nblock0:\n  v1 = iadd v0, v0\n  v0 = iconst.i64 1\n  return\n}",
             "block0: v1 = iadd v0, v0: operand v0 does not dominate this use\n"
             "block0: v1 = iadd v0, v0: operand v0 does not dominate this use"},
        Case{"NotDominatingBlockArgument",
             "func @f(i1) -> () {\nblock0(v0: i1):\n  br v0, block1, block2\nblock1:\n  v1 = "
             "iconst.i64 1\n  jump block3(v1)\nblock2:\n  jump block3(v1)\nblock3(v2: i64):\n  "
             "return\n}",
             "block2: jump block3(v1): block argument v1 does not dominate this use"},
        Case{"FrameStateInputNotDominating",
             "func @f(i1) -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [v1:v1] "
             "stack []\nblock0(v0: i1):\n  guard v0, fs0, \"r\"\n  v1 = iconst.i64 1\n  "
             "return\n}",
             "block0: guard v0, fs0, \"r\": fs0 input v1 does not dominate this use\n"
             "block0: guard v0, fs0, \"r\": fs0 input v1 does not dominate this use"},
        Case{"ParentFrameStateInput",
             "func @f(i1) -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [] "
             "stack [] parent fs1\n  fs1 = eager interpreter target 1 resume 0 locals [v1:v1] "
             "stack []\nblock0(v0: i1):\n  guard v0, fs0, \"r\"\n  v1 = iconst.i64 1\n  "
             "return\n}",
             "block0: guard v0, fs0, \"r\": fs1 input v1 does not dominate this use\n"
             "block0: guard v0, fs0, \"r\": fs1 input v1 does not dominate this use"},
        Case{"FrameStateTypes",
             "func @f(i32) -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [v0:v0] "
             "stack []\nblock0(v0: i32):\n  return\n}",
             "fs0: local value v0 is i32, not i64\nfs0: local value v0 is i32, not i64"},
        Case{"IllegalStackEntry",
             "func @f() -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [] stack "
             "[illegal]\nblock0:\n  return\n}",
             "fs0: stack entry is illegal"},
        Case{"FrameStateCycle",
             "func @f() -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [] stack [] "
             "parent fs1\n  fs1 = eager interpreter target 0 resume 0 locals [] stack [] parent "
             "fs0\nblock0:\n  return\n}",
             "fs0: parent chain is cyclic\nfs1: parent chain is cyclic"},
        Case{"LazyFrameStateOnGuard",
             "func @f(i1) -> () {\n  fs0 = lazy interpreter target 0 resume 0 locals [] stack "
             "[]\nblock0(v0: i1):\n  guard v0, fs0, \"r\"\n  return\n}",
             "block0: guard v0, fs0, \"r\": needs an eager frame state, fs0 is lazy"},
        Case{"EagerFrameStateOnCall",
             "func @f() -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [] stack "
             "[]\nblock0:\n  call_target @1() -> (), fs0\n  return\n}",
             "block0: call_target @1() -> (), fs0: needs a lazy frame state, fs0 is eager"},
        Case{"MayDeoptCallWithoutFrameState",
             "declare @g() -> () may_deopt\nfunc @f() -> () {\nblock0:\n  call_runtime @g() -> "
             "()\n  return\n}",
             "block0: call_runtime @g() -> (): callee may deoptimize: the call needs a lazy frame "
             "state"},
        Case{"RuntimeSignature",
             "declare @g(i64) -> (i64)\nfunc @f(i32) -> () {\nblock0(v0: i32):\n  v1 = "
             "call_runtime @g(v0) -> (i32)\n  return\n}",
             "block0: v1 = call_runtime @g(v0) -> (i32): arguments (i32) do not match @g(i64)\n"
             "block0: v1 = call_runtime @g(v0) -> (i32): result types do not match the opcode "
             "table"},
        Case{"TooManyCallResults",
             "func @f() -> () {\nblock0:\n  v0, v1, v2 = call_target @1() -> (i64, i64, i64)\n  "
             "return\n}",
             "block0: v0, v1, v2 = call_target @1() -> (i64, i64, i64): a call returns at most 2 "
             "values"},
        Case{"IconstType",
             "func @f() -> () {\nblock0:\n  v0 = iconst.f64 1\n  return\n}",
             "block0: v0 = iconst.f64 1: iconst type must be i1, i32 or i64, not f64"},
        Case{"MissingReason",
             "func @f(i1) -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [] stack "
             "[]\nblock0(v0: i1):\n  guard v0, fs0, \"\"\n  return\n}",
             "block0: guard v0, fs0, \"\": missing deoptimization reason"}),
    [](const testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// Errors the text form cannot express, made with the API.
TEST(VerifierTest, EmptyFunctionAndEmptyBlock) {
  Function f("f", {}, {});
  EXPECT_EQ(std::string(Verify(f).message()), "function has no blocks");
  f.CreateBlock();
  EXPECT_EQ(std::string(Verify(f).message()), "block0 is empty (needs a terminator)");
}

TEST(VerifierTest, UseOfRemovedValue) {
  Function f("f", {}, {Type::kI64});
  Builder b(&f);
  Block* entry = b.CreateEntryBlock();
  b.SetInsertionPoint(entry);
  Value* one = b.I64(1);
  b.Return({one});
  entry->Remove(one->instruction());
  EXPECT_EQ(std::string(Verify(f).message()),
            "block0: return v0: operand v0 is not defined in this function (removed?)");
}

TEST(VerifierTest, ValueFromAnotherFunction) {
  Function g("g", {Type::kI64}, {});
  Builder gb(&g);
  Block* g_entry = gb.CreateEntryBlock();
  Function f("f", {}, {Type::kI64});
  Builder b(&f);
  b.SetInsertionPoint(b.CreateEntryBlock());
  b.Return({g_entry->params()[0]});
  EXPECT_EQ(std::string(Verify(f).message()),
            "block0: return v0: operand v0 is not defined in this function (removed?)");
}

TEST(VerifierTest, BranchToBlockOfAnotherFunctionAndForeignFrameState) {
  Function g("g", {}, {});
  Block* foreign = g.CreateBlock();
  FrameState* foreign_fs = g.CreateFrameState();
  Function f("f", {Type::kI1}, {});
  Builder b(&f);
  Block* entry = b.CreateEntryBlock();
  b.SetInsertionPoint(entry);
  b.Guard(entry->params()[0], foreign_fs, "r");
  b.Jump(foreign);
  EXPECT_EQ(std::string(Verify(f).message()),
            "block0: guard v0, fs0, \"r\": fs0 does not belong to this function\n"
            "block0: jump block0: branch target is not a block of this function");
}

TEST(VerifierTest, DeoptActionOnlyOnGuardsAndDeopts) {
  Function f("f", {}, {Type::kI64});
  Builder b(&f);
  b.SetInsertionPoint(b.CreateEntryBlock());
  Value* one = b.I64(1);
  one->instruction()->set_deopt_action(DeoptAction::kKeepCode);
  b.Return({one});
  EXPECT_EQ(std::string(Verify(f).message()),
            "block0: v0 = iconst.i64 1: a deopt action on an instruction that does not "
            "deoptimize");
}

TEST(VerifierTest, AliasClassOnlyOnLoadsAndStores) {
  Function f("f", {Type::kPtr}, {Type::kI64});
  Builder b(&f);
  Block* entry = b.CreateEntryBlock();
  b.SetInsertionPoint(entry);
  Value* loaded = b.Load(Type::kI64, entry->params()[0], 0, AliasClass::Get("C+0"));
  b.Store(loaded, entry->params()[0], 8, AliasClass::Get("C+8"));
  Value* one = b.I64(1);
  one->instruction()->set_alias_class(AliasClass::Get("C+0"));
  b.Return({one});
  EXPECT_EQ(std::string(Verify(f).message()),
            "block0: v2 = iconst.i64 1: an alias class on an instruction that is not a "
            "load or store");
}

TEST(VerifierTest, NullOperandAndMissingFrameState) {
  Function f("f", {}, {});
  Builder b(&f);
  b.SetInsertionPoint(b.CreateEntryBlock());
  Instruction* guard = f.CreateInstruction(Opcode::kGuard);
  guard->mutable_operands() = {nullptr};
  guard->set_reason("r");
  b.Append(guard);
  b.Return({});
  EXPECT_EQ(std::string(Verify(f).message()),
            "block0: guard <null>, <null>, \"r\": null operand\n"
            "block0: guard <null>, <null>, \"r\": null operand\n"
            "block0: guard <null>, <null>, \"r\": needs an eager frame state");
}

}  // namespace
}  // namespace morel::ir
