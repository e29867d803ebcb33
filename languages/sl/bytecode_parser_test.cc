#include "languages/sl/bytecode_parser.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "languages/sl/parser/parser.h"
#include "languages/sl/runtime/sl_function.h"
#include "nodes/bytecode/bytecode.h"
#include "nodes/source.h"

namespace morel::sl {
namespace {

// How the bytecode of `program`'s first function reads local `name`, in
// code order: "plain" (load.local: every path assigned it first) or
// "checked" (load.local.checked: the read before the first assignment
// fails).
std::vector<std::string> ReadsOf(absl::string_view program, absl::string_view name) {
  absl::StatusOr<std::unique_ptr<ast::Program>> parsed = ParseProgram(program, "test.sl");
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok()) return {};
  std::shared_ptr<const ast::Program> ast(std::move(*parsed));
  const std::vector<std::string>& slots = ast->functions[0].slot_names;
  int slot = -1;
  for (size_t i = 0; i < slots.size(); ++i) {
    if (slots[i] == name) slot = static_cast<int>(i);
  }
  EXPECT_GE(slot, 0) << "no local " << name;
  FunctionIds ids;
  FunctionBinding binding;
  binding.shared_ids = &ids;
  binding.bytecode = true;
  auto source = std::make_shared<const Source>("test.sl", std::string(program));
  std::unique_ptr<SLBytecodeRootNode> root = BuildBytecodeFunctionRoot(binding, ast, source, 0);
  std::vector<std::string> reads;
  const absl::Span<const int32_t> code = root->code();
  for (int bci : bytecode::Bcis(code)) {
    const auto op = static_cast<bytecode::Opcode>(code[bci]);
    if (op == bytecode::Opcode::kLoadLocal && code[bci + 1] == slot) reads.push_back("plain");
    if (op == bytecode::Opcode::kLoadLocalChecked && code[bci + 1] == slot) {
      reads.push_back("checked");
    }
    // A read fused into an operation (op.local and its kin) is plain.
    if (bytecode::IsOperation(op)) {
      const bytecode::OperationInstruction operation = bytecode::DecodeOperation(code, bci);
      for (int i = 0; i < operation.local_count; ++i) {
        if (operation.locals[i] == slot) reads.push_back("plain");
      }
    }
  }
  return reads;
}

using Reads = std::vector<std::string>;

TEST(BytecodeParserTest, ParametersAndEarlierAssignmentsAreRead) {
  EXPECT_EQ(ReadsOf("function f(a) { x = a; return a + x; }", "a"), Reads({"plain", "plain"}));
  EXPECT_EQ(ReadsOf("function f(a) { x = a; return a + x; }", "x"), Reads({"plain"}));
}

TEST(BytecodeParserTest, ReadBeforeTheFirstAssignmentIsChecked) {
  EXPECT_EQ(ReadsOf("function f() { println(x); x = 1; println(x); }", "x"),
            Reads({"checked", "plain"}));
}

TEST(BytecodeParserTest, BothBranchesOfAnIfMustAssign) {
  // `x = 3` declares x in the body block, so the branches write that x.
  EXPECT_EQ(ReadsOf("function f(c) { if (c) { x = 1; } else { x = 2; } println(x); x = 3; }", "x"),
            Reads({"plain"}));
  EXPECT_EQ(ReadsOf("function f(c) { if (c) { x = 1; } println(x); x = 3; }", "x"),
            Reads({"checked"}));
  EXPECT_EQ(ReadsOf("function f(c) { if (c) { x = 1; println(x); } x = 3; }", "x"),
            Reads({"plain"}));
}

TEST(BytecodeParserTest, ABranchThatLeavesDoesNotCount) {
  EXPECT_EQ(
      ReadsOf("function f(c) { if (c) { return 1; } else { x = 1; } println(x); x = 2; }", "x"),
      Reads({"plain"}));
  EXPECT_EQ(ReadsOf("function f(c) { while (c) { if (c) { break; } else { x = 1; } println(x); } "
                    "x = 2; }",
                    "x"),
            Reads({"plain"}));
  EXPECT_EQ(
      ReadsOf("function f(c) { while (c) { if (c) { continue; } x = 1; } println(x); x = 2; }",
              "x"),
      Reads({"checked"}));
}

TEST(BytecodeParserTest, ALoopBodyMayNotRun) {
  EXPECT_EQ(ReadsOf("function f(c) { while (c) { x = 1; println(x); } println(x); x = 2; }", "x"),
            Reads({"plain", "checked"}));
  // What the condition assigns counts after the loop and in its body.
  EXPECT_EQ(ReadsOf("function f(c) { while ((x = c) == 1) { println(x); } println(x); }", "x"),
            Reads({"plain", "plain"}));
}

TEST(BytecodeParserTest, TheRightOperandOfAShortCircuitMayNotRun) {
  EXPECT_EQ(ReadsOf("function f(c) { r = c || (x = 1) == 1; println(x); x = 2; }", "x"),
            Reads({"checked"}));
  EXPECT_EQ(ReadsOf("function f(c) { r = (x = c) == 1 && c; println(x); }", "x"), Reads({"plain"}));
}

}  // namespace
}  // namespace morel::sl
