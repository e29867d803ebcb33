#include <string>

#include "engine/ir/builder.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "gtest/gtest.h"

namespace morel::ir {
namespace {

constexpr char kAllForms[] = R"(func @all_forms(i64, i64, ptr, f64) -> (i64, i64) {
  fs0 = eager interpreter target 3 resume 17 locals [v0:v1, illegal] stack [] parent fs1
  fs1 = eager interpreter target 2 resume 4 locals [] stack [v0:v1]
  fs2 = lazy interpreter target 3 resume 18 locals [v0:v1, illegal] stack [v0:v1]
block0(v0: i64, v1: i64, v2: ptr, v3: f64):
  v4 = iconst.i64 -5
  v5 = iconst.i32 7
  v6 = iconst.i1 1
  v7 = pconst 0x7f00dead0000
  v8 = iadd v0, v4
  v13 = ineg v0
  v14 = iadd_overflows v0, v4
  v20 = not v0
  v24 = icmp ule v0, v4
  v25 = select v24, v0, v4
  v26 = zext.i64 v5
  v28 = trunc.i32 v0
  v29 = bitcast.f64 v0
  v30 = fadd v3, v29
  v34 = load.i64 v2, -8
  store.f64 v30, v2, 16
  v42 = load.ptr v2, 8, alias "SLObject+8"
  store.i64 v34, v2, 0, alias "value \"slots\""
  call_runtime @poll() -> ()
  v35, v36 = call_runtime @rt(v0, v1) -> (i64, i64), fs2
  v37, v38 = call_target @12(v35, v36) -> (i64, i64)
  guard v6, fs0, "tag \"mismatch\"\n"
  guard v6, fs0, "transferToInterpreter", keep_code
  safepoint fs0
  br v24, block1(v37), block2
block1(v39: i64):
  jump block3(v39, v38)
block2:
  deopt fs1, "transfer to interpreter", keep_code
block3(v40: i64, v41: i64):
  br v14, block4, block5
block4:
  unreachable
block5:
  return v40, v41
}
)";

RuntimeRegistry& TestRegistry() {
  static RuntimeRegistry* registry = [] {
    auto* r = new RuntimeRegistry();
    (void)r->Register({"poll", nullptr, {{}, {}}, RuntimeEffects::kNoDeopt});
    (void)r->Register({"rt", nullptr, {{Type::kI64, Type::kI64}, {Type::kI64, Type::kI64}},
                       RuntimeEffects::kMayDeopt});
    return r;
  }();
  return *registry;
}

TEST(PrinterParserTest, RoundTripsEveryForm) {
  auto f = ParseFunction(kAllForms, &TestRegistry());
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(Verify(**f).ok()) << Verify(**f);
  EXPECT_EQ(PrintFunction(**f), kAllForms);
  // And again from the printed form.
  auto g = ParseFunction(PrintFunction(**f), &TestRegistry());
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(PrintFunction(**g), kAllForms);
}

TEST(PrinterParserTest, ForwardReferencesAndLayoutOrder) {
  // block2 is laid out before the block defining v1, which dominates it.
  constexpr char kText[] = R"(func @f(i64) -> (i64) {
block0(v0: i64):
  jump block1
block2:
  v3 = iadd v2, v1
  return v3
block1:
  v1 = iconst.i64 3
  v2 = imul v1, v0
  jump block2
}
)";
  auto f = ParseFunction(kText, &TestRegistry());
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(Verify(**f).ok()) << Verify(**f);
  EXPECT_EQ(PrintFunction(**f), kText);
}

TEST(PrinterParserTest, BuiltIrRoundTrips) {
  Function f("built", {Type::kI64}, {Type::kI64});
  Builder b(&f);
  Block* entry = b.CreateEntryBlock();
  b.SetInsertionPoint(entry);
  Value* x = b.Binary(Opcode::kIsub, entry->params()[0], b.I64(-1));
  FrameState* fs = b.CreateFrameState(DeoptKind::kEager, 4, 5, {{x, x}}, {});
  b.Guard(b.ICmp(Cond::kUge, x, entry->params()[0]), fs, "range");
  b.Return({x});
  std::string text = PrintRuntimeDeclarations(f) + PrintFunction(f);
  RuntimeRegistry registry;
  auto g = ParseFunction(text, &registry);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(PrintFunction(**g), PrintFunction(f));
}

TEST(PrinterParserTest, AliasClassesRoundTripAsTheSameInternedClass) {
  Function f("alias", {Type::kPtr}, {Type::kI64});
  Builder b(&f);
  Block* entry = b.CreateEntryBlock();
  b.SetInsertionPoint(entry);
  Value* p = entry->params()[0];
  const AliasClass* field = AliasClass::Get("Test+16");
  Value* x = b.Load(Type::kI64, p, 16, field);
  b.Store(x, p, 0);  // unknown: prints as before alias classes existed
  b.Return({x});
  const std::string text = PrintFunction(f);
  EXPECT_EQ(text,
            "func @alias(ptr) -> (i64) {\n"
            "block0(v0: ptr):\n"
            "  v1 = load.i64 v0, 16, alias \"Test+16\"\n"
            "  store.i64 v1, v0, 0\n"
            "  return v1\n"
            "}\n");
  RuntimeRegistry registry;
  auto g = ParseFunction(text, &registry);
  ASSERT_TRUE(g.ok()) << g.status();
  const std::vector<Instruction*>& insts = (*g)->entry()->instructions();
  EXPECT_EQ(insts[0]->alias_class(), field);  // interned: the same pointer
  EXPECT_EQ(insts[1]->alias_class(), nullptr);
  EXPECT_EQ(PrintFunction(**g), text);
}

TEST(AliasClassTest, InternedByNameAndDisjointOnlyWhenBothKnown) {
  const AliasClass* a = AliasClass::Get("A");
  const AliasClass* b = AliasClass::Get("B");
  EXPECT_EQ(AliasClass::Get("A"), a);
  EXPECT_NE(a, b);
  EXPECT_EQ(a->name(), "A");
  EXPECT_TRUE(MayAlias(a, a));
  EXPECT_FALSE(MayAlias(a, b));
  EXPECT_TRUE(MayAlias(a, nullptr));
  EXPECT_TRUE(MayAlias(nullptr, b));
  EXPECT_TRUE(MayAlias(nullptr, nullptr));
}

TEST(PrinterParserTest, DeclarationsRegisterAndRoundTrip) {
  RuntimeRegistry registry;
  auto fs = ParseFunctions(R"(
declare @a(i64, i64) -> (i64, i64) may_deopt
declare @b() -> ()
func @f() -> () {
block0:
  call_runtime @b() -> ()
  return
}
)",
                           &registry);
  ASSERT_TRUE(fs.ok()) << fs.status();
  ASSERT_NE(registry.Find("a"), nullptr);
  EXPECT_EQ(registry.Find("a")->effects, RuntimeEffects::kMayDeopt);
  EXPECT_EQ(PrintRuntimeDeclaration(*registry.Find("a")),
            "declare @a(i64, i64) -> (i64, i64) may_deopt");
  EXPECT_EQ(PrintRuntimeDeclarations(*(*fs)[0]), "declare @b() -> ()\n");
}

struct ErrorCase {
  const char* name;
  const char* text;
  const char* message;
};

class ParseErrorTest : public testing::TestWithParam<ErrorCase> {};

TEST_P(ParseErrorTest, NamesLineAndColumn) {
  RuntimeRegistry registry;
  (void)registry.Register({"g", nullptr, {{Type::kI64}, {}}, RuntimeEffects::kNoDeopt});
  auto f = ParseFunctions(GetParam().text, &registry);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(std::string(f.status().message()), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ParseErrorTest,
    testing::Values(
        ErrorCase{"UnknownOpcode", "func @f() -> () {\nblock0:\n  v0 = frobnicate\n}",
                  "line 3, column 8: unknown opcode 'frobnicate'"},
        ErrorCase{"UndefinedValue", "func @f() -> (i64) {\nblock0:\n  return v7\n}",
                  "line 3, column 10: use of undefined value v7"},
        ErrorCase{"DefinedTwice",
                  "func @f() -> () {\nblock0:\n  v0 = iconst.i64 1\n  v0 = iconst.i64 2\n}",
                  "line 4, column 3: value v0 is defined twice"},
        ErrorCase{"MissingSuffix", "func @f() -> () {\nblock0:\n  v0 = iconst 1\n}",
                  "line 3, column 8: 'iconst' needs a type suffix (.T)"},
        ErrorCase{"UnexpectedSuffix", "func @f(i64) -> () {\nblock0(v0: i64):\n  v1 = iadd.i64 "
                                      "v0, v0\n}",
                  "line 3, column 8: 'iadd' takes no type suffix"},
        ErrorCase{"BadType", "func @f(i65) -> () {\n}",
                  "line 1, column 9: expected a type (i1, i32, i64, f64, ptr), found 'i65'"},
        ErrorCase{"UnknownRuntimeFunction",
                  "func @f() -> () {\nblock0:\n  call_runtime @nope() -> ()\n  return\n}",
                  "line 3, column 16: unknown runtime function '@nope'"},
        ErrorCase{"ConflictingDeclaration", "declare @g(i32) -> ()\n",
                  "line 1, column 9: runtime function @g is already registered with a "
                  "different signature or effects"},
        ErrorCase{"ResultCount", "func @f() -> () {\nblock0:\n  store.i64 v0, v1, 0\n  v2 = "
                                 "guard v0, fs0, \"r\"\n}",
                  "line 4, column 3: 'guard' defines 0 value(s), found 1"},
        ErrorCase{"TrailingGarbage",
                  "func @f() -> () {\nblock0:\n  return\n  v0 = iconst.i64 1 2\n}",
                  "line 4, column 21: unexpected '2' at end of line"},
        ErrorCase{"UndefinedBlock", "func @f() -> () {\nblock0:\n  jump block9\n}",
                  "line 3, column 8: use of undefined block block9"},
        ErrorCase{"UndefinedFrameState",
                  "func @f(i1) -> () {\nblock0(v0: i1):\n  guard v0, fs3, \"r\"\n  return\n}",
                  "line 3, column 13: use of undefined frame state fs3"},
        ErrorCase{"UnterminatedString",
                  "func @f(i1) -> () {\nblock0(v0: i1):\n  guard v0, fs3, \"r\n}",
                  "line 3, column 18: unterminated string"},
        ErrorCase{"UnknownDeoptAction",
                  "func @f(i1) -> () {\n  fs0 = eager interpreter target 0 resume 0 locals [] "
                  "stack []\nblock0(v0: i1):\n  guard v0, fs0, \"r\", keep\n  return\n}",
                  "line 4, column 23: expected 'keep_code', found 'keep'"},
        ErrorCase{"UnknownLoadAttribute",
                  "func @f(ptr) -> () {\nblock0(v0: ptr):\n  v1 = load.i64 v0, 8, class \"x\"\n"
                  "  return\n}",
                  "line 3, column 24: expected 'alias', found 'class'"},
        ErrorCase{"AliasClassNotQuoted",
                  "func @f(ptr) -> () {\nblock0(v0: ptr):\n  v1 = load.i64 v0, 8, alias x\n"
                  "  return\n}",
                  "line 3, column 30: expected a quoted alias class name, found 'x'"},
        ErrorCase{"EmptyAliasClass",
                  "func @f(i64, ptr) -> () {\nblock0(v0: i64, v1: ptr):\n  store.i64 v0, v1, 0, "
                  "alias \"\"\n  return\n}",
                  "line 3, column 30: empty alias class name"},
        ErrorCase{"BadCharacter", "func @f() -> () {\n  %\n}",
                  "line 2, column 3: unexpected character '%'"},
        ErrorCase{"MissingBrace", "func @f() -> () {\nblock0:\n  return\n",
                  "line 4, column 1: expected '}', found end of input"},
        ErrorCase{"CyclicType",
                  "func @f() -> () {\nblock0:\n  v0 = iadd v1, v1\n  v1 = iadd v0, v0\n  "
                  "return\n}",
                  "line 3, column 3: cannot infer the type of v0 (its operands' types are "
                  "unknown)"}),
    [](const testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace morel::ir
