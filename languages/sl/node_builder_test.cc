#include "languages/sl/node_builder.h"

#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "languages/sl/bytecode_parser.h"
#include "languages/sl/parser/parser.h"
#include "languages/sl/runtime/sl_function.h"
#include "nodes/bytecode/bytecode.h"
#include "nodes/source.h"

namespace morel::sl {
namespace {

// The comparisons (SL's comparison operator nodes, either interpreter) in
// the first function of `program`: AST nodes, or bytecode operations.
int Comparisons(absl::string_view program, bool bytecode) {
  absl::StatusOr<std::unique_ptr<ast::Program>> parsed = ParseProgram(program, "test.sl");
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok()) return -1;
  std::shared_ptr<const ast::Program> ast(std::move(*parsed));
  FunctionIds ids;
  FunctionBinding binding;
  binding.shared_ids = &ids;
  binding.bytecode = bytecode;
  auto source = std::make_shared<const Source>("test.sl", std::string(program));
  std::unique_ptr<RootNode> root = BuildFunctionRoot(binding, ast, source, 0);
  int count = 0;
  auto is_comparison = [](absl::string_view kind) {
    return kind == "SLEqualNode" || kind == "SLLessThanNode" || kind == "SLLessOrEqualNode";
  };
  if (!bytecode) {
    root->ForEachNode([&](Node& node) { count += is_comparison(node.kind_name()); });
    return count;
  }
  auto* bytecode_root = static_cast<SLBytecodeRootNode*>(root.get());
  const absl::Span<const int32_t> code = bytecode_root->code();
  for (int bci : bytecode::Bcis(code)) {
    const auto op = static_cast<bytecode::Opcode>(code[bci]);
    if (!bytecode::IsOperation(op)) continue;
    const bytecode::OperationInstruction operation = bytecode::DecodeOperation(code, bci);
    count += is_comparison(bytecode_root->operation_node(operation.operation)->kind_name());
  }
  return count;
}

TEST(NodeBuilderTest, ComparisonsOfLiteralsAreConstants) {
  for (bool bytecode : {false, true}) {
    SCOPED_TRACE(bytecode ? "bytecode" : "AST");
    EXPECT_EQ(Comparisons("function f() { x = 1 == 1; y = (2) < 3; z = 4 >= 5; }", bytecode), 0);
    EXPECT_EQ(Comparisons("function f() { while (1 == 1) { if (1 != 2) { break; } } }", bytecode),
              0);
    // An operand that is not a literal, or a literal that may not fit in 64
    // bits: the operator stays.
    EXPECT_EQ(Comparisons("function f(a) { x = a == 1; y = 1 < a; }", bytecode), 2);
    EXPECT_EQ(Comparisons("function f() { x = 1234567890123456789 == 1; }", bytecode), 1);
    EXPECT_EQ(Comparisons("function f() { x = 1 + 1 == 2; }", bytecode), 1);
  }
}

}  // namespace
}  // namespace morel::sl
