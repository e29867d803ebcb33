// ParseStrategy::kSllThenLl (the default: SLL prediction, a full LL parse
// only after an error) must give exactly what kLlOnly (the reference's
// algorithm) gives: the same tree or the same first error. Checked on
// generated programs rich in the grammar's ambiguities (assignments inside
// operator chains, comparisons, nested groups) and on token-level mutations
// of them, most of which are syntax errors.

#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "languages/sl/parser/ast_printer.h"
#include "languages/sl/parser/scope_resolver.h"
#include "languages/sl/parser/syntax_parser.h"

namespace morel::sl {
namespace {

class ProgramGenerator {
 public:
  explicit ProgramGenerator(uint32_t seed) : rng_(seed) {}

  std::vector<std::string> Program() {
    std::vector<std::string> out;
    const int functions = Uniform(1, 2);
    for (int f = 0; f < functions; ++f) {
      Emit(&out, {"function", f == 0 ? "main" : "g", "(", "a", ")"});
      Block(&out, 3);
    }
    return out;
  }

 private:
  int Uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  const char* Pick(const std::vector<const char*>& choices) {
    return choices[Uniform(0, static_cast<int>(choices.size()) - 1)];
  }
  static void Emit(std::vector<std::string>* out,
                   std::initializer_list<const char*> tokens) {
    for (const char* t : tokens) out->push_back(t);
  }

  void Block(std::vector<std::string>* out, int depth) {
    out->push_back("{");
    const int statements = Uniform(0, 2);
    for (int i = 0; i < statements; ++i) Statement(out, depth - 1);
    out->push_back("}");
  }

  void Statement(std::vector<std::string>* out, int depth) {
    switch (depth <= 0 ? Uniform(0, 1) : Uniform(0, 5)) {
      case 0:
      case 1:
        Expression(out, 2);
        out->push_back(";");
        return;
      case 2:
        out->push_back("return");
        if (Uniform(0, 3) != 0) Expression(out, 2);
        out->push_back(";");
        return;
      case 3:
      case 4:
        Emit(out, {Uniform(0, 1) ? "if" : "while", "("});
        Expression(out, 2);
        out->push_back(")");
        Block(out, depth);
        if (out->size() > 0 && Uniform(0, 2) == 0) {
          out->push_back("else");
          Block(out, depth);
        }
        return;
      default:
        Emit(out, {Pick({"break", "continue", "debugger"}), ";"});
        return;
    }
  }

  // Operator chains whose operands may be assignments: `x = 1 + 2 < 3` and
  // the like are ambiguous in the grammar (assignment is a member of an
  // identifier whose right side is a whole expression).
  void Expression(std::vector<std::string>* out, int depth) {
    Operand(out, depth);
    const int operators = Uniform(0, 2);
    for (int i = 0; i < operators; ++i) {
      out->push_back(
          Pick({"+", "-", "*", "/", "<", "<=", ">", "==", "!=", "&&", "||"}));
      Operand(out, depth);
    }
  }

  void Operand(std::vector<std::string>* out, int depth) {
    switch (depth <= 0 ? Uniform(0, 1) : Uniform(0, 6)) {
      case 0:
        out->push_back(Pick({"1", "22", "\"s\"", "a"}));
        return;
      case 1:
        out->push_back(Pick({"x", "y", "a"}));
        return;
      case 2:
      case 3:
        Emit(out, {Pick({"x", "y"}), "="});
        Expression(out, depth - 1);
        return;
      case 4:
        out->push_back("(");
        Expression(out, depth - 1);
        out->push_back(")");
        return;
      case 5: {
        Emit(out, {"g", "("});
        const int arguments = Uniform(0, 2);
        for (int i = 0; i < arguments; ++i) {
          if (i > 0) out->push_back(",");
          Expression(out, depth - 1);
        }
        out->push_back(")");
        return;
      }
      default:
        Emit(out, {"x", Pick({".", "["})});
        if (out->back() == ".") {
          out->push_back("f");
        } else {
          Expression(out, depth - 1);
          out->push_back("]");
        }
        if (Uniform(0, 1)) {
          out->push_back("=");
          Expression(out, depth - 1);
        }
        return;
    }
  }

 public:
  // Deletes, inserts or replaces one or two tokens.
  void Mutate(std::vector<std::string>* tokens) {
    static const std::vector<const char*> kTokens = {
        "+", "=", "(", ")", ";", "{", "}", ",", "x", "1", "<", "&&",
        "if", "[", "]", ".", "return", "while"};
    const int edits = Uniform(1, 2);
    for (int e = 0; e < edits && !tokens->empty(); ++e) {
      const int at = Uniform(0, static_cast<int>(tokens->size()) - 1);
      switch (Uniform(0, 2)) {
        case 0:
          tokens->erase(tokens->begin() + at);
          break;
        case 1:
          tokens->insert(tokens->begin() + at, Pick(kTokens));
          break;
        default:
          (*tokens)[at] = Pick(kTokens);
          break;
      }
    }
  }

 private:
  std::mt19937 rng_;
};

std::string Outcome(const std::string& source, ParseStrategy strategy) {
  absl::StatusOr<syntax::Unit> unit = ParseSyntax(source, strategy);
  if (!unit.ok()) return std::string(unit.status().message());
  absl::StatusOr<std::unique_ptr<ast::Program>> program =
      ResolveProgram(*unit, "test.sl");
  if (!program.ok()) return std::string(program.status().message());
  return PrintProgram(**program);
}

TEST(ParseStrategyTest, SllThenLlMatchesLlOnGeneratedPrograms) {
  ProgramGenerator generator(19);
  int parsed = 0;
  int failed = 0;
  for (int i = 0; i < 1000; ++i) {
    std::vector<std::string> tokens = generator.Program();
    if (i % 4 != 0) generator.Mutate(&tokens);
    const std::string source = absl::StrJoin(tokens, " ");
    const std::string expected = Outcome(source, ParseStrategy::kLlOnly);
    ASSERT_EQ(Outcome(source, ParseStrategy::kSllThenLl), expected)
        << "source: " << source;
    (expected.rfind("Error(s) parsing script:", 0) == 0 ? failed : parsed)++;
  }
  // Both kinds of input are exercised.
  EXPECT_GT(parsed, 100);
  EXPECT_GT(failed, 400);
}

}  // namespace
}  // namespace morel::sl
