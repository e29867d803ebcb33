#include "languages/sl/bytecode_parser.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "languages/sl/node_builder.h"
#include "languages/sl/nodes/arithmetic_nodes.h"
#include "languages/sl/nodes/comparison_nodes.h"
#include "languages/sl/nodes/invoke_node.h"
#include "languages/sl/nodes/literal_nodes.h"
#include "languages/sl/nodes/local_nodes.h"
#include "languages/sl/nodes/logical_nodes.h"
#include "languages/sl/nodes/property_nodes.h"
#include "languages/sl/runtime/big_integer.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/values.h"
#include "languages/sl/sl_context.h"
#include "nodes/bytecode/bytecode_builder.h"

namespace morel::sl {
namespace {

using bytecode::BytecodeBuilder;

class BytecodeParser {
 public:
  BytecodeParser(const FunctionBinding& binding, std::shared_ptr<const Source> source)
      : binding_(binding), source_(std::move(source)) {}

  BytecodeBuilder& builder() { return b_; }

  SourceSection Section(const ast::SourceSpan& span) const { return SectionOf(source_, span); }

  void Function(const ast::Function& function) {
    b_.SetSource(Section(function.span));
    assigned_.assign(function.slot_names.size(), false);
    // Parameters: missing arguments are NULL (sl_spec §1.2), stored as the
    // AST root stores them (store.local records the slot's kind).
    for (size_t i = 0; i < function.parameter_slots.size(); ++i) {
      b_.EmitArgument(static_cast<int>(i), NullValue());
      b_.EmitStoreLocal(function.parameter_slots[i]);
      Assign(function.parameter_slots[i]);
    }
    Statement(*function.body);
    b_.SetSource(Section(function.span));
    b_.EmitConstant(NullValue());
    b_.EmitReturn();
  }

  void Statement(const ast::Statement& s) {
    using K = ast::StatementKind;
    b_.SetSource(Section(s.span));
    switch (s.kind) {
      case K::kExpression:
        if (s.expression->kind == ast::ExpressionKind::kWriteLocal) {
          // The assignment's value is not used: store it without a copy.
          Expression(*s.expression->value);
          b_.EmitStoreLocal(s.expression->slot);
          Assign(s.expression->slot);
          return;
        }
        Expression(*s.expression);
        b_.EmitPop();
        return;
      case K::kWhile: {
        Loop loop{b_.NewLabel(), b_.NewLabel()};
        b_.Bind(loop.header);
        BranchUnless(*s.condition, loop.exit);
        // The exit is reached when the condition is false, or by a break
        // after it: what the condition assigned.
        const std::vector<bool> at_exit = assigned_;
        loops_.push_back(loop);
        Statement(*s.body);
        loops_.pop_back();
        b_.EmitBranch(loop.header);
        b_.Bind(loop.exit);
        assigned_ = at_exit;
        return;
      }
      case K::kIf: {
        auto otherwise = b_.NewLabel(), end = b_.NewLabel();
        BranchUnless(*s.condition, otherwise);
        const std::vector<bool> after_condition = assigned_;
        Statement(*s.body);
        const std::vector<bool> after_then = assigned_;
        b_.EmitBranch(end);
        b_.Bind(otherwise);
        assigned_ = after_condition;
        if (s.else_body) Statement(*s.else_body);
        b_.Bind(end);
        Meet(after_then);
        return;
      }
      case K::kBreak:
        MOREL_CHECK_MSG(!loops_.empty(), "break outside a loop (the parser rejects it)");
        b_.EmitBranch(loops_.back().exit);
        Unreachable();
        return;
      case K::kContinue:
        MOREL_CHECK_MSG(!loops_.empty(), "continue outside a loop (the parser rejects it)");
        b_.EmitBranch(loops_.back().header);
        Unreachable();
        return;
      case K::kReturn:
        if (s.expression) {
          Expression(*s.expression);
        } else {
          b_.EmitConstant(NullValue());
        }
        b_.SetSource(Section(s.span));
        b_.EmitReturn();
        Unreachable();
        return;
      case K::kDebugger:
        return;  // a breakpoint hook for debuggers; nothing at run time
      case K::kBlock:
        for (const auto& statement : s.statements) Statement(*statement);
        return;
    }
  }

 private:
  struct Loop {
    BytecodeBuilder::Label header;
    BytecodeBuilder::Label exit;
  };

  // An if/while condition, converted as the AST's statement nodes convert
  // it (toBoolean errors point at the condition), then a branch to `target`
  // if it is false. A comparison is a Boolean already; one evaluated as the
  // negation of another (`>` is NOT `<=`) branches if the other is true.
  void BranchUnless(const ast::Expression& condition, BytecodeBuilder::Label target) {
    const ast::Expression* e = &condition;
    while (e->kind == ast::ExpressionKind::kParenthesized) e = e->operand.get();
    if (e->kind == ast::ExpressionKind::kBinary && IsBoolean(*e) && !FoldLiteralComparison(*e)) {
      if (Binary(*e)) {
        b_.EmitBranchTrue(target);
      } else {
        b_.EmitBranchFalse(target);
      }
      return;
    }
    Expression(condition);
    if (!IsBoolean(condition)) ToBoolean(condition.span);
    b_.EmitBranchFalse(target);
  }

  // The operands and operator of a binary expression; true if the result
  // still needs negating (sl_spec §6.4: `>` is NOT `<=`).
  bool Binary(const ast::Expression& e) {
    Expression(*e.left);
    Expression(*e.right);
    SourceSection section = Section(e.span);
    BinaryOperator op = MakeBinaryOperator(e.binary_op, section, nullptr, nullptr);
    b_.SetSource(section);
    b_.EmitOperation(bytecode::OperationNode::OfNode(std::move(op.node)), 2);
    return op.negated;
  }

  // Whether `e` always evaluates to a Boolean (or fails), so that the
  // conversion of a condition would be the identity.
  static bool IsBoolean(const ast::Expression& e) {
    using K = ast::ExpressionKind;
    switch (e.kind) {
      case K::kParenthesized:
        return IsBoolean(*e.operand);
      case K::kLogical:  // converted (EmitShortCircuit)
        return true;
      case K::kBinary:
        switch (e.binary_op) {
          case ast::BinaryOp::kLess:
          case ast::BinaryOp::kLessEqual:
          case ast::BinaryOp::kGreater:
          case ast::BinaryOp::kGreaterEqual:
          case ast::BinaryOp::kEqual:
          case ast::BinaryOp::kNotEqual:
            return true;
          default:
            return false;
        }
      default:
        return false;
    }
  }

  void ToBoolean(const ast::SourceSpan& span) {
    b_.EmitOperation(std::make_unique<SLToBooleanNode>(Section(span)), 1);
  }

  void Expression(const ast::Expression& e) {
    using K = ast::ExpressionKind;
    SourceSection section = Section(e.span);
    b_.SetSource(section);
    switch (e.kind) {
      case K::kNumberLiteral:
        b_.EmitConstant(NumberFromDecimal(e.number_text));
        return;
      case K::kStringLiteral:
        b_.EmitConstant(StringValue(e.string_value));
        return;
      case K::kReadLocal:
        if (assigned_[e.slot]) {
          b_.EmitLoadLocal(e.slot);
        } else {
          // The node reports a read before the first assignment.
          b_.EmitLoadLocalChecked(e.slot, std::make_unique<SLReadLocalNode>(section, e.slot));
        }
        return;
      case K::kWriteLocal:
        Expression(*e.value);
        b_.EmitDup();
        b_.EmitStoreLocal(e.slot);
        Assign(e.slot);
        return;
      case K::kFunctionLiteral:
        if (binding_.shared_ids != nullptr) {
          b_.EmitOperation(std::make_unique<SLFunctionLiteralNode>(
                               section, binding_.shared_ids, binding_.shared_ids->IdOf(e.name)),
                           0);
        } else {
          b_.EmitConstant(binding_.context->functions().Lookup(e.name)->AsValue());
        }
        return;
      case K::kBinary:
        if (std::optional<bool> folded = FoldLiteralComparison(e)) {
          b_.EmitConstant(Value::Boolean(*folded));
          return;
        }
        if (Binary(e)) b_.EmitOperation(std::make_unique<SLNotNode>(section, nullptr), 1);
        return;
      case K::kLogical: {
        // The right operand may not run: after the whole, what the left
        // assigned.
        std::vector<bool> after_left;
        b_.EmitShortCircuit(
            e.logical_op == ast::LogicalOp::kAnd ? BytecodeBuilder::ShortCircuit::kAnd
                                                 : BytecodeBuilder::ShortCircuit::kOr,
            [&] {
              Expression(*e.left);
              after_left = assigned_;
            },
            [&] { Expression(*e.right); }, [&] { ToBoolean(e.span); });
        assigned_ = after_left;
        return;
      }
      case K::kCall: {
        // A function literal of single-context code is the node's constant,
        // not an operand.
        const bool constant_callee =
            e.callee->kind == K::kFunctionLiteral && binding_.shared_ids == nullptr;
        if (!constant_callee) Expression(*e.callee);
        for (const auto& argument : e.arguments) Expression(*argument);
        b_.SetSource(section);
        const size_t count = e.arguments.size();
        b_.EmitOperation(
            constant_callee
                ? std::make_unique<SLInvokeNode>(
                      section, binding_.context->functions().Lookup(e.callee->name), count)
                : std::make_unique<SLInvokeNode>(
                      section, nullptr, std::vector<std::unique_ptr<SLExpressionNode>>(count),
                      binding_.shared_ids),
            static_cast<int>(count) + (constant_callee ? 0 : 1));
        return;
      }
      case K::kReadProperty:
        Expression(*e.receiver);
        Key(e);
        b_.SetSource(section);
        b_.EmitOperation(std::make_unique<SLReadPropertyNode>(section, nullptr, nullptr), 2);
        return;
      case K::kWriteProperty:
        Expression(*e.receiver);
        Key(e);
        Expression(*e.value);
        b_.SetSource(section);
        b_.EmitOperation(std::make_unique<SLWritePropertyNode>(section, nullptr, nullptr, nullptr),
                         3);
        return;
      case K::kParenthesized:
        Expression(*e.operand);
        return;
    }
  }

  // `[key]`'s expression, or the name of `.name` as a string.
  void Key(const ast::Expression& e) {
    if (e.key) {
      Expression(*e.key);
    } else {
      b_.EmitConstant(StringValue(e.name));
    }
  }

  // Definite assignment (the rule Java's compilers check, JLS ch. 16):
  // assigned_[slot] when every path to the instruction being emitted has
  // assigned the local, so a read of it is a plain `load.local`, without the
  // check (and node) for a read before the first assignment. The walk emits
  // in evaluation order; where paths meet, a local counts only if each path
  // assigned it, and after a jump (break, continue, return) nothing is
  // reachable, so every local counts until the next join.
  void Assign(int slot) { assigned_[slot] = true; }
  void Unreachable() { assigned_.assign(assigned_.size(), true); }
  void Meet(const std::vector<bool>& other) {
    for (size_t i = 0; i < assigned_.size(); ++i) assigned_[i] = assigned_[i] && other[i];
  }

  FunctionBinding binding_;
  std::shared_ptr<const Source> source_;
  BytecodeBuilder b_;
  std::vector<Loop> loops_;
  std::vector<bool> assigned_;
};

}  // namespace

std::unique_ptr<SLBytecodeRootNode> BuildBytecodeFunctionRoot(
    const FunctionBinding& binding, std::shared_ptr<const ast::Program> program,
    std::shared_ptr<const Source> source, int function_index) {
  const ast::Function& function = program->functions[function_index];
  BytecodeParser parser(binding, source);
  parser.Function(function);
  absl::StatusOr<bytecode::BytecodeProgram> code = std::move(parser.builder()).Build();
  // The AST is checked (scopes, break/continue in loops): a failure here is
  // a bug of this translation, not of the program.
  MOREL_CHECK_MSG(code.ok(),
                  absl::StrCat("SL bytecode of ", function.name, ": ", code.status().message()));
  auto descriptor = std::make_unique<FrameDescriptor>();
  for (const std::string& name : function.slot_names) descriptor->AddSlot(name);
  return std::make_unique<SLBytecodeRootNode>(parser.Section(function.span), function.name,
                                              std::move(descriptor), std::move(*code), binding,
                                              std::move(program), function_index);
}

}  // namespace morel::sl
