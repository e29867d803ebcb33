#include "languages/sl/node_builder.h"

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "base/check.h"
#include "languages/sl/bytecode_parser.h"
#include "languages/sl/nodes/arithmetic_nodes.h"
#include "languages/sl/nodes/comparison_nodes.h"
#include "languages/sl/nodes/invoke_node.h"
#include "languages/sl/nodes/literal_nodes.h"
#include "languages/sl/nodes/local_nodes.h"
#include "languages/sl/nodes/logical_nodes.h"
#include "languages/sl/nodes/property_nodes.h"
#include "languages/sl/nodes/statement_nodes.h"
#include "languages/sl/runtime/big_integer.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/sl_context.h"

namespace morel::sl {

SourceSection SectionOf(const std::shared_ptr<const Source>& source, const ast::SourceSpan& span) {
  SourceSection section;
  section.source = source;
  section.line = span.line;
  section.column = span.column;
  section.char_index = span.char_index;
  section.char_length = span.char_length;
  return section;
}

BinaryOperator MakeBinaryOperator(ast::BinaryOp op, const SourceSection& section,
                                  std::unique_ptr<SLExpressionNode> left,
                                  std::unique_ptr<SLExpressionNode> right) {
  auto make = [&](auto tag, bool negated) {
    using Node = typename decltype(tag)::type;
    return BinaryOperator{std::make_unique<Node>(section, std::move(left), std::move(right)),
                          negated};
  };
  switch (op) {
    case ast::BinaryOp::kAdd:
      return make(std::type_identity<SLAddNode>(), false);
    case ast::BinaryOp::kSub:
      return make(std::type_identity<SLSubNode>(), false);
    case ast::BinaryOp::kMul:
      return make(std::type_identity<SLMulNode>(), false);
    case ast::BinaryOp::kDiv:
      return make(std::type_identity<SLDivNode>(), false);
    case ast::BinaryOp::kLess:
      return make(std::type_identity<SLLessThanNode>(), false);
    case ast::BinaryOp::kLessEqual:
      return make(std::type_identity<SLLessOrEqualNode>(), false);
    // a > b is !(a <= b), a >= b is !(a < b) (sl_spec §6.4), a != b !(a == b).
    case ast::BinaryOp::kGreater:
      return make(std::type_identity<SLLessOrEqualNode>(), true);
    case ast::BinaryOp::kGreaterEqual:
      return make(std::type_identity<SLLessThanNode>(), true);
    case ast::BinaryOp::kEqual:
      return make(std::type_identity<SLEqualNode>(), false);
    case ast::BinaryOp::kNotEqual:
      return make(std::type_identity<SLEqualNode>(), true);
  }
  return {};
}

std::optional<bool> FoldLiteralComparison(const ast::Expression& e) {
  if (e.kind != ast::ExpressionKind::kBinary) return std::nullopt;
  auto literal = [](const ast::Expression* operand) -> std::optional<int64_t> {
    while (operand->kind == ast::ExpressionKind::kParenthesized) operand = operand->operand.get();
    int64_t value;
    // 18 digits always fit; longer literals may be big numbers: not folded.
    if (operand->kind != ast::ExpressionKind::kNumberLiteral || operand->number_text.size() > 18 ||
        !absl::SimpleAtoi(operand->number_text, &value)) {
      return std::nullopt;
    }
    return value;
  };
  const std::optional<int64_t> left = literal(e.left.get());
  const std::optional<int64_t> right = literal(e.right.get());
  if (!left || !right) return std::nullopt;
  switch (e.binary_op) {
    case ast::BinaryOp::kLess:
      return *left < *right;
    case ast::BinaryOp::kLessEqual:
      return *left <= *right;
    case ast::BinaryOp::kGreater:
      return *left > *right;
    case ast::BinaryOp::kGreaterEqual:
      return *left >= *right;
    case ast::BinaryOp::kEqual:
      return *left == *right;
    case ast::BinaryOp::kNotEqual:
      return *left != *right;
    default:
      return std::nullopt;
  }
}

namespace {

class NodeBuilder {
 public:
  NodeBuilder(const FunctionBinding& binding, std::shared_ptr<const Source> source)
      : binding_(binding), source_(std::move(source)) {}

  SourceSection Section(const ast::SourceSpan& span) const { return SectionOf(source_, span); }

  std::unique_ptr<SLExpressionNode> Expression(const ast::Expression& e) {
    using K = ast::ExpressionKind;
    SourceSection section = Section(e.span);
    switch (e.kind) {
      case K::kNumberLiteral:
        return std::make_unique<SLConstantNode>(section, NumberFromDecimal(e.number_text));
      case K::kStringLiteral:
        return std::make_unique<SLConstantNode>(section, StringValue(e.string_value));
      case K::kReadLocal:
        return std::make_unique<SLReadLocalNode>(section, e.slot);
      case K::kWriteLocal:
        return std::make_unique<SLWriteLocalNode>(section, e.slot, Expression(*e.value));
      case K::kFunctionLiteral:
        if (binding_.shared_ids != nullptr) {
          return std::make_unique<SLFunctionLiteralNode>(section, binding_.shared_ids,
                                                         binding_.shared_ids->IdOf(e.name));
        }
        return std::make_unique<SLConstantNode>(
            section, binding_.context->functions().Lookup(e.name)->AsValue());
      case K::kBinary:
        if (std::optional<bool> folded = FoldLiteralComparison(e)) {
          return std::make_unique<SLConstantNode>(section, Value::Boolean(*folded));
        }
        return Binary(e, section);
      case K::kLogical:
        if (e.logical_op == ast::LogicalOp::kAnd) {
          return std::make_unique<SLAndNode>(section, Expression(*e.left), Expression(*e.right));
        }
        return std::make_unique<SLOrNode>(section, Expression(*e.left), Expression(*e.right));
      case K::kCall: {
        std::vector<std::unique_ptr<SLExpressionNode>> arguments;
        for (const auto& argument : e.arguments) arguments.push_back(Expression(*argument));
        return std::make_unique<SLInvokeNode>(section, Expression(*e.callee), std::move(arguments),
                                              binding_.shared_ids);
      }
      case K::kReadProperty:
        return std::make_unique<SLReadPropertyNode>(section, Expression(*e.receiver), Key(e));
      case K::kWriteProperty: {
        auto receiver = Expression(*e.receiver);
        auto key = Key(e);
        return std::make_unique<SLWritePropertyNode>(section, std::move(receiver), std::move(key),
                                                     Expression(*e.value));
      }
      case K::kParenthesized:
        return Expression(*e.operand);
    }
    return nullptr;
  }

  std::unique_ptr<SLStatementNode> Statement(const ast::Statement& s) {
    using K = ast::StatementKind;
    SourceSection section = Section(s.span);
    switch (s.kind) {
      case K::kExpression:
        return std::make_unique<SLExpressionStatementNode>(section, Expression(*s.expression));
      case K::kWhile: {
        SourceSection condition = Section(s.condition->span);
        auto repeating = std::make_unique<SLWhileRepeatingNode>(condition, Expression(*s.condition),
                                                                Block(*s.body));
        return std::make_unique<SLWhileNode>(section, std::move(repeating));
      }
      case K::kIf:
        return std::make_unique<SLIfNode>(Section(s.condition->span), Expression(*s.condition),
                                          Block(*s.body),
                                          s.else_body ? Block(*s.else_body) : nullptr);
      case K::kBreak:
        return std::make_unique<SLBreakNode>(section);
      case K::kContinue:
        return std::make_unique<SLContinueNode>(section);
      case K::kReturn:
        return std::make_unique<SLReturnNode>(section,
                                              s.expression ? Expression(*s.expression) : nullptr);
      case K::kDebugger:
        return std::make_unique<SLDebuggerNode>(section);
      case K::kBlock:
        return Block(s);
    }
    return nullptr;
  }

  // The body of a function, `if` or `while`: always a block (the parser
  // accepts nothing else there).
  std::unique_ptr<SLBlockNode> Block(const ast::Statement& s) {
    MOREL_CHECK_MSG(s.kind == ast::StatementKind::kBlock, "a body is a block");
    std::vector<std::unique_ptr<SLStatementNode>> body;
    for (const auto& statement : s.statements) body.push_back(Statement(*statement));
    return std::make_unique<SLBlockNode>(Section(s.span), std::move(body));
  }

 private:
  std::unique_ptr<SLExpressionNode> Key(const ast::Expression& e) {
    if (e.key) return Expression(*e.key);
    return std::make_unique<SLConstantNode>(Section(e.span), StringValue(e.name));
  }

  std::unique_ptr<SLExpressionNode> Binary(const ast::Expression& e, const SourceSection& section) {
    BinaryOperator op =
        MakeBinaryOperator(e.binary_op, section, Expression(*e.left), Expression(*e.right));
    if (!op.negated) return std::move(op.node);
    return std::make_unique<SLNotNode>(section, std::move(op.node));
  }

  FunctionBinding binding_;
  std::shared_ptr<const Source> source_;
};

}  // namespace

std::unique_ptr<RootNode> BuildFunctionRoot(const FunctionBinding& binding,
                                            std::shared_ptr<const ast::Program> program,
                                            std::shared_ptr<const Source> source,
                                            int function_index) {
  MOREL_CHECK_MSG((binding.context != nullptr) != (binding.shared_ids != nullptr),
                  "a function binding names one context or shared ids");
  if (binding.bytecode) {
    return BuildBytecodeFunctionRoot(binding, std::move(program), std::move(source),
                                     function_index);
  }
  const ast::Function& function = program->functions[function_index];
  NodeBuilder builder(binding, std::move(source));
  auto descriptor = std::make_unique<FrameDescriptor>();
  for (const std::string& name : function.slot_names) descriptor->AddSlot(name);
  return std::make_unique<SLFunctionRootNode>(builder.Section(function.span), function.name,
                                              std::move(descriptor), function.parameter_slots,
                                              builder.Block(*function.body), binding,
                                              std::move(program), function_index);
}

}  // namespace morel::sl
