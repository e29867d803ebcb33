// Fuzz target (testing/fuzz): SL programs built from the input bytes by the
// grammar of sl_spec §3.1, so that mutations change program structure
// rather than mostly breaking the lexer. Every choice (statement kind,
// operator, identifier, nesting) comes from one byte (testing/fuzz
// ByteReader); nesting stays below 8 levels, far from any parser limit.
//
// The first byte chooses between
//   - a valid program (sl_spec §3 and §4: break/continue only in loops,
//     assignments only to names, fields and elements): ParseProgram must
//     accept it -- a rejection is a parser bug;
//   - the same program with a few tokens dropped, duplicated or replaced
//     by other tokens: ParseProgram must return a program or a parse error
//     in the format of sl_spec §4.3, never crash.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "languages/sl/parser/ast_printer.h"
#include "languages/sl/parser/parser.h"
#include "testing/fuzz/byte_reader.h"
#include "testing/fuzz/fuzz_target.h"

namespace morel::sl {
namespace {

constexpr int kMaxDepth = 8;

class Generator {
 public:
  explicit Generator(fuzz::ByteReader& in) : in_(in) {}

  std::vector<std::string> Program() {
    const int functions = static_cast<int>(in_.Int(1, 4));
    for (int f = 0; f < functions; ++f) Function(f);
    return tokens_;
  }

 private:
  void Emit(std::string token) { tokens_.push_back(std::move(token)); }

  std::string Identifier() {
    static const char* kNames[] = {"a", "b", "x", "y", "obj", "f0", "f1", "println", "new",
                                   "null", "$t", "_u", "functionX", "whileY", "i1"};
    return kNames[in_.Index(std::size(kNames))];
  }

  void Function(int index) {
    Emit("function");
    Emit(index == 0 ? "main" : absl::StrCat("f", index - 1));
    Emit("(");
    const int params = static_cast<int>(in_.Int(0, 3));
    for (int p = 0; p < params; ++p) {
      if (p > 0) Emit(",");
      Emit(Identifier());
    }
    Emit(")");
    Block(0, /*in_loop=*/false);
  }

  void Block(int depth, bool in_loop) {
    Emit("{");
    const int statements = static_cast<int>(in_.Int(0, depth == 0 ? 6 : 3));
    for (int s = 0; s < statements; ++s) Statement(depth + 1, in_loop);
    Emit("}");
  }

  void Statement(int depth, bool in_loop) {
    const int kind = static_cast<int>(in_.Int(0, depth >= kMaxDepth ? 2 : 8));
    switch (kind) {
      case 0:
      case 1:
        Expression(depth);
        Emit(";");
        return;
      case 2:
        Emit("return");
        if (in_.Bool()) Expression(depth);
        Emit(";");
        return;
      case 3:
      case 4:
        Emit("if");
        Emit("(");
        Expression(depth);
        Emit(")");
        Block(depth, in_loop);
        if (in_.Bool()) {
          Emit("else");
          Block(depth, in_loop);
        }
        return;
      case 5:
        Emit("while");
        Emit("(");
        Expression(depth);
        Emit(")");
        Block(depth, /*in_loop=*/true);
        return;
      case 6:
        Emit(in_loop ? (in_.Bool() ? "break" : "continue") : "debugger");
        Emit(";");
        return;
      default:
        // An assignment statement: name, field or element.
        Emit(Identifier());
        for (int m = static_cast<int>(in_.Int(0, 2)); m > 0; --m) Access(depth);
        Emit("=");
        Expression(depth);
        Emit(";");
        return;
    }
  }

  // expression = logic_term { "||" logic_term }, and so on down the levels.
  void Expression(int depth) {
    const int terms = static_cast<int>(in_.Int(1, depth >= kMaxDepth ? 1 : 3));
    for (int t = 0; t < terms; ++t) {
      if (t > 0) Emit(in_.Bool() ? "||" : "&&");
      Arithmetic(depth);
      if (in_.Int(0, 3) == 0) {
        static const char* kCompare[] = {"<", "<=", ">", ">=", "==", "!="};
        Emit(kCompare[in_.Index(6)]);
        Arithmetic(depth);
      }
    }
  }

  void Arithmetic(int depth) {
    const int factors = static_cast<int>(in_.Int(1, depth >= kMaxDepth ? 1 : 4));
    for (int f = 0; f < factors; ++f) {
      if (f > 0) {
        static const char* kOps[] = {"+", "-", "*", "/"};
        Emit(kOps[in_.Index(4)]);
      }
      Factor(depth);
    }
  }

  void Factor(int depth) {
    switch (depth >= kMaxDepth ? in_.Int(0, 2) : in_.Int(0, 5)) {
      case 0:
        Emit(absl::StrCat(in_.Int(0, 2) == 0 ? in_.Word() : in_.Int(0, 20)));
        return;
      case 1: {
        std::string text = in_.Bytes(12);
        for (char& c : text) {
          if (c == '"' || c == '\n' || c == '\r') c = '_';
        }
        Emit(absl::StrCat("\"", text, "\""));
        return;
      }
      case 2:
        Emit(Identifier());
        return;
      case 3:
        Emit("(");
        Expression(depth + 1);
        Emit(")");
        return;
      default: {
        // A member chain: calls, fields, elements, ending maybe in an
        // assignment (never right after a call: sl_spec §4.2).
        Emit(Identifier());
        bool after_call = false;
        for (int m = static_cast<int>(in_.Int(1, 3)); m > 0; --m) {
          if (in_.Bool()) {
            Emit("(");
            const int args = static_cast<int>(in_.Int(0, 2));
            for (int a = 0; a < args; ++a) {
              if (a > 0) Emit(",");
              Expression(depth + 1);
            }
            Emit(")");
            after_call = true;
          } else {
            Access(depth);
            after_call = false;
          }
        }
        if (!after_call && in_.Int(0, 3) == 0) {
          Emit("=");
          Expression(depth + 1);
        }
        return;
      }
    }
  }

  void Access(int depth) {
    if (in_.Bool()) {
      Emit(".");
      Emit(Identifier());
    } else {
      Emit("[");
      Expression(depth + 1);
      Emit("]");
    }
  }

  fuzz::ByteReader& in_;
  std::vector<std::string> tokens_;
};

// Drops, duplicates or replaces a few tokens.
void Corrupt(std::vector<std::string>& tokens, fuzz::ByteReader& in) {
  static const char* kTokens[] = {"function", "(", ")", "{", "}", ",", ";", "=", ".", "[",
                                  "]", "if", "else", "while", "break", "continue", "return",
                                  "debugger", "||", "&&", "<", "==", "+", "*", "x", "1",
                                  "\"s\"", "!", "%", "/*", "\"unterminated", "007"};
  for (int edits = static_cast<int>(in.Int(1, 3)); edits > 0 && !tokens.empty(); --edits) {
    const size_t at = in.Index(tokens.size());
    switch (in.Int(0, 2)) {
      case 0:
        tokens.erase(tokens.begin() + static_cast<ptrdiff_t>(at));
        break;
      case 1:
        tokens.insert(tokens.begin() + static_cast<ptrdiff_t>(at), tokens[at]);
        break;
      default:
        tokens[at] = kTokens[in.Index(std::size(kTokens))];
        break;
    }
  }
}

}  // namespace
}  // namespace morel::sl

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morel::sl;
  morel::fuzz::ByteReader in(data, size);
  const bool corrupt = in.Bool();
  const bool newlines = in.Bool();
  std::vector<std::string> tokens = Generator(in).Program();
  if (corrupt) Corrupt(tokens, in);
  const std::string source = absl::StrJoin(tokens, newlines ? "\n" : " ");
  auto program = ParseProgram(source, "fuzz.sl");
  if (program.ok()) {
    PrintProgram(**program);
    return 0;
  }
  if (!corrupt) {
    morel::fuzz::FuzzFailure("the parser accepts every program of the grammar",
                             absl::StrCat(program.status().ToString(), "\nprogram:\n", source));
  }
  if (!absl::StartsWith(program.status().message(), "Error(s) parsing script:\n-- line ")) {
    morel::fuzz::FuzzFailure("parse errors read \"Error(s) parsing script:\\n-- line L col C: ...\"",
                             program.status().ToString());
  }
  return 0;
}
