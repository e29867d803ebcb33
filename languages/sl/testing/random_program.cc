#include "languages/sl/testing/random_program.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "testing/fuzz/byte_reader.h"

namespace morel::sl::testing {
namespace {

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}
  // Every choice from `choices` instead of a pseudo-random sequence.
  explicit Generator(fuzz::ByteReader* choices) : choices_(choices) {}

  std::string Program() {
    int functions = 2 + Next(4);
    // Arguments are numbers for most of main's loop and change type at the
    // end, after compiled code specialized on numbers.
    std::string out =
        "function late(i) { if (i < 9) { return i * 3; } return \"s\" + i; }\n"
        "function flip(i) { if (i < 10) { return i + 1; } return i < 11; }\n"
        // Objects used as arrays (elements) and as maps: `o` of every
        // function starts with the keys 0..7, which idx() keeps reads in.
        "function fresh() { o = new(); i = 0; while (i < 8) { o[i] = i; i = i + 1; } "
        "return o; }\n"
        "function idx(i) { if (i < 0) { i = 0 - i; } return i - (i / 8) * 8; }\n";
    for (int f = 0; f < functions; ++f) out += Function(f);
    // main calls each function several times with varying arguments, so
    // compiled code sees new types after it specialized.
    out += "function main() {\n  r = 0;\n  i = 0;\n  while (i < 12) {\n";
    for (int f = 0; f < functions; ++f) {
      absl::StrAppend(&out, "    r = f", f, "(i, ", Argument(), ");\n");
      absl::StrAppend(&out, "    println(r);\n");
    }
    out += "    i = i + 1;\n  }\n  return r;\n}\n";
    return out;
  }

 private:
  int Next(int n) {
    if (choices_ != nullptr) return static_cast<int>(choices_->Index(static_cast<size_t>(n)));
    return static_cast<int>(rng_() % static_cast<uint64_t>(n));
  }

  std::string Argument() {
    switch (Next(6)) {
      case 0:
        return absl::StrCat(Next(100));
      case 1:
        return "late(i)";
      case 2:
        return "i * 1000000000000";
      case 3:
        return "flip(i)";
      default:
        return "i";
    }
  }

  std::string Function(int index) {
    function_ = index;
    locals_ = {"a", "b"};
    loop_depth_ = 0;
    std::string body = Block(3 + Next(4), 1);
    return absl::StrCat("function f", index, "(a, b) {\n  o = fresh();\n", body, "  return ",
                        Expression(2), ";\n}\n");
  }

  std::string Indent(int depth) { return std::string(2 * depth, ' '); }

  std::string Block(int statements, int depth) {
    std::string out;
    for (int i = 0; i < statements; ++i) out += Statement(depth);
    return out;
  }

  std::string Statement(int depth) {
    int kind = Next(depth > 3 ? 3 : 9);
    switch (kind) {
      case 7:
        // An element of 0..7 (as a Number or as its String form), one
        // further out (growing the elements, leaving holes), or any value as
        // a key (negative and big numbers, strings, Booleans: named).
        switch (Next(4)) {
          case 0:
            return absl::StrCat(Indent(depth), "o[idx(", Expression(2), ")] = ", Expression(2),
                                ";\n");
          case 1:
            return absl::StrCat(Indent(depth), "o[\"\" + idx(", Expression(1), ")] = ",
                                Expression(2), ";\n");
          case 2:
            return absl::StrCat(Indent(depth), "o[idx(", Expression(1), ") + ", 8 * (1 + Next(6)),
                                "] = ", Expression(2), ";\n");
          default:
            return absl::StrCat(Indent(depth), "o[", Expression(2), "] = ", Expression(1),
                                ";\n");
        }
      case 8:
        return absl::StrCat(Indent(depth), "a = o[idx(", Expression(2), ")];\n");
      case 0:
      case 1: {
        std::string target = Next(3) == 0 || locals_.size() < 4
                                 ? absl::StrCat("v", locals_.size())
                                 : locals_[Next(static_cast<int>(locals_.size()))];
        std::string line = absl::StrCat(Indent(depth), target, " = ", Expression(3), ";\n");
        if (std::find(locals_.begin(), locals_.end(), target) == locals_.end()) {
          // Only visible after its first assignment at this depth.
          if (depth == 1) locals_.push_back(target);
        }
        return line;
      }
      case 2:
        // Printing only outside loops keeps the output small.
        if (loop_depth_ > 0) return absl::StrCat(Indent(depth), "a = ", Expression(2), ";\n");
        return absl::StrCat(Indent(depth), "println(", Expression(2), ");\n");
      case 3:
      case 4:
        return absl::StrCat(Indent(depth), "if (", Condition(), ") {\n",
                            Block(1 + Next(2), depth + 1), Indent(depth), "} else {\n",
                            Block(1 + Next(2), depth + 1), Indent(depth), "}\n");
      case 5: {
        if (loop_depth_ > 1) return absl::StrCat(Indent(depth), "println(a);\n");
        const int n = counter_++;
        std::string counter = absl::StrCat("k", n);
        ++loop_depth_;
        std::string body = Block(1 + Next(3), depth + 1);
        --loop_depth_;
        std::string exit_early =
            Next(3) == 0 ? absl::StrCat(Indent(depth + 1), "if (", counter, " == 3) { break; }\n")
                         : "";
        // Sometimes a record local assigned anew at the end of every
        // iteration, unassigned before the loop (escape analysis keeps the
        // previous one virtual at the loop header), read back in the next
        // iteration or after the loop (every iteration that gets there
        // assigned it).
        std::string read_previous, assign, after;
        if (Next(3) == 0) {
          std::string record = absl::StrCat("p", n);
          if (Next(2) == 0) {
            read_previous = absl::StrCat(Indent(depth + 1), "if (", counter, " > 0) { a = ", record,
                                         ".x + ", record, ".y; }\n");
          }
          assign = absl::StrCat(Indent(depth + 1), record, " = new();\n", Indent(depth + 1), record,
                                ".x = ", Expression(2), ";\n", Indent(depth + 1), record,
                                ".y = ", counter, ";\n");
          if (Next(3) == 0) after = absl::StrCat(Indent(depth), "a = ", record, ".y;\n");
        }
        return absl::StrCat(Indent(depth), counter, " = 0;\n", Indent(depth), "while (", counter,
                            " < ", 2 + Next(6), ") {\n", exit_early, read_previous, body, assign,
                            Indent(depth + 1), counter, " = ", counter, " + 1;\n", Indent(depth),
                            "}\n", after);
      }
      default:
        return absl::StrCat(Indent(depth), "if (", Condition(), ") { return ",
                            Expression(2), "; }\n");
    }
  }

  std::string Condition() {
    static const char* kCompare[] = {"<", "<=", ">", ">=", "==", "!="};
    std::string c = absl::StrCat(Operand(), " ", kCompare[Next(6)], " ", Operand());
    if (Next(4) == 0) c = absl::StrCat("(", c, ") && (", Operand(), " != 0)");
    return c;
  }

  std::string Operand() {
    int choice = Next(10);
    if (choice < 6) return locals_[Next(static_cast<int>(locals_.size()))];
    if (choice < 9) return absl::StrCat(Next(20));
    return function_ > 0 ? absl::StrCat("f", Next(function_), "(a, ", Next(9), ")") : "b";
  }

  std::string Expression(int depth) {
    if (depth == 0 || Next(3) == 0) return Operand();
    static const char* kOps[] = {"+", "-", "*", "/", "+", "*"};
    const char* op = kOps[Next(6)];
    std::string right = Expression(depth - 1);
    if (std::string(op) == "/") right = absl::StrCat("(", right, " * 0 + ", 1 + Next(7), ")");
    return absl::StrCat("(", Expression(depth - 1), " ", op, " ", right, ")");
  }

  std::mt19937_64 rng_;
  fuzz::ByteReader* choices_ = nullptr;
  std::vector<std::string> locals_;
  int function_ = 0;
  int loop_depth_ = 0;
  int counter_ = 0;
};

}  // namespace

std::string RandomSlProgram(uint64_t seed) { return Generator(seed).Program(); }

std::string RandomSlProgramFromBytes(absl::Span<const uint8_t> choices) {
  fuzz::ByteReader reader(choices.data(), choices.size());
  return Generator(&reader).Program();
}

}  // namespace morel::sl::testing
