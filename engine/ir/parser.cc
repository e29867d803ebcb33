#include "engine/ir/parser.h"

#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_cat.h"
#include "engine/ir/lexer.h"
#include "engine/ir/semantics.h"
#include "engine/ir/type_rules.h"

namespace morel::ir {
namespace {

// A use of a value/block/frame state by number, remembered with its
// position until the whole function is read.
struct Ref {
  uint32_t id = 0;
  int line = 0, column = 0;
};

struct ParsedBlockCall {
  Ref block;
  std::vector<Ref> args;
};

struct ParsedInst {
  Instruction* inst = nullptr;
  const Token* start = nullptr;
  std::vector<Ref> operands;
  std::optional<Ref> frame_state;
  std::vector<ParsedBlockCall> targets;
};

struct ParsedPair {
  std::optional<Ref> payload, tag;  // both empty: illegal
  bool object = false;              // payload names a virtual object voN
};

struct ParsedField {
  int32_t offset = 0;
  Type type = Type::kI64;
  Ref value;
  bool object = false;  // value names a virtual object voN
};

struct ParsedObject {
  VirtualObject* object = nullptr;
  std::vector<ParsedField> fields;
  std::optional<Ref> existing, existing_if;
};

struct ParsedFrameState {
  FrameState* fs = nullptr;
  std::vector<ParsedPair> locals, stack;
  std::optional<Ref> parent;
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, RuntimeRegistry* registry)
      : tokens_(std::move(tokens)), registry_(registry) {}

  absl::StatusOr<std::vector<std::unique_ptr<Function>>> ParseAll() {
    std::vector<std::unique_ptr<Function>> functions;
    while (Peek().kind != TokenKind::kEof) {
      if (PeekIs("declare")) {
        absl::Status s = ParseDeclare();
        if (!s.ok()) return s;
      } else if (PeekIs("func")) {
        absl::StatusOr<std::unique_ptr<Function>> f = ParseFunc();
        if (!f.ok()) return f.status();
        functions.push_back(std::move(*f));
      } else {
        return Error(Peek(), "expected 'func' or 'declare'");
      }
    }
    return functions;
  }

 private:
  // ------------------------------------------------------------ tokens
  const Token& Peek(int ahead = 0) const {
    size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[i];
  }
  const Token& Next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool PeekIs(absl::string_view text, int ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind != TokenKind::kString && t.kind != TokenKind::kEof && t.text == text;
  }
  static std::string Describe(const Token& t) {
    if (t.kind == TokenKind::kEof) return "end of input";
    if (t.kind == TokenKind::kString) return absl::StrCat("string \"", t.text, "\"");
    if (t.kind == TokenKind::kGlobal) return absl::StrCat("'@", t.text, "'");
    return absl::StrCat("'", t.text, "'");
  }
  absl::Status Error(const Token& t, absl::string_view message) const {
    return absl::InvalidArgumentError(PositionedMessage(t.line, t.column, message));
  }
  absl::Status Expected(absl::string_view what) const {
    return Error(Peek(), absl::StrCat("expected ", what, ", found ", Describe(Peek())));
  }
  absl::Status Expect(absl::string_view punct) {
    if (!PeekIs(punct) || Peek().kind == TokenKind::kIdent) {
      return Expected(absl::StrCat("'", punct, "'"));
    }
    Next();
    return absl::OkStatus();
  }

  // "v12" -> 12 for prefix "v".
  static std::optional<uint32_t> Numbered(const Token& t, absl::string_view prefix) {
    if (t.kind != TokenKind::kIdent || !absl::StartsWith(t.text, prefix) ||
        t.text.size() <= prefix.size()) {
      return std::nullopt;
    }
    uint32_t n;
    absl::string_view digits = absl::string_view(t.text).substr(prefix.size());
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
    }
    if (!absl::SimpleAtoi(digits, &n)) return std::nullopt;
    return n;
  }
  absl::StatusOr<Ref> ParseRef(absl::string_view prefix, absl::string_view what) {
    std::optional<uint32_t> n = Numbered(Peek(), prefix);
    if (!n) return Expected(what);
    const Token& t = Next();
    return Ref{*n, t.line, t.column};
  }
  absl::StatusOr<int64_t> ParseInt() {
    if (Peek().kind != TokenKind::kInt) return Expected("an integer");
    const Token& t = Next();
    absl::string_view text = t.text;
    bool negative = absl::ConsumePrefix(&text, "-");
    uint64_t magnitude;
    bool ok = absl::ConsumePrefix(&text, "0x") || absl::ConsumePrefix(&text, "0X")
                  ? absl::SimpleHexAtoi(text, &magnitude)
                  : absl::SimpleAtoi(text, &magnitude);
    if (!ok) return Error(t, absl::StrCat("integer out of range: ", t.text));
    return static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
  }
  absl::StatusOr<Type> ParseTypeToken() {
    if (Peek().kind == TokenKind::kIdent) {
      if (std::optional<Type> t = ParseType(Peek().text)) {
        Next();
        return *t;
      }
    }
    return Expected("a type (i1, i32, i64, f64, ptr)");
  }
  absl::StatusOr<std::vector<Type>> ParseTypeList() {
    std::vector<Type> types;
    if (absl::Status s = Expect("("); !s.ok()) return s;
    if (!PeekIs(")")) {
      while (true) {
        absl::StatusOr<Type> t = ParseTypeToken();
        if (!t.ok()) return t.status();
        types.push_back(*t);
        if (!PeekIs(",")) break;
        Next();
      }
    }
    if (absl::Status s = Expect(")"); !s.ok()) return s;
    return types;
  }
  // Comma-separated values; with `optional_on_line`, possibly none (stops
  // at the first token on a later line).
  absl::StatusOr<std::vector<Ref>> ParseValueList(int line, bool allow_empty) {
    std::vector<Ref> refs;
    if (allow_empty && (Peek().line != line || !Numbered(Peek(), "v"))) return refs;
    while (true) {
      absl::StatusOr<Ref> r = ParseRef("v", "a value (vN)");
      if (!r.ok()) return r.status();
      refs.push_back(*r);
      if (!PeekIs(",") || Peek().line != line || !Numbered(Peek(1), "v")) break;
      Next();
    }
    return refs;
  }
  absl::StatusOr<ParsedBlockCall> ParseBlockCall() {
    ParsedBlockCall call;
    absl::StatusOr<Ref> b = ParseRef("block", "a block (blockN)");
    if (!b.ok()) return b.status();
    call.block = *b;
    if (PeekIs("(") && Peek().line == b->line) {
      Next();
      if (!PeekIs(")")) {
        absl::StatusOr<std::vector<Ref>> args = ParseValueList(Peek().line, false);
        if (!args.ok()) return args.status();
        call.args = *args;
      }
      if (absl::Status s = Expect(")"); !s.ok()) return s;
    }
    return call;
  }
  absl::StatusOr<std::string> ParseString() {
    if (Peek().kind != TokenKind::kString) return Expected("a quoted reason");
    return Next().text;
  }

  // ----------------------------------------------------- declarations
  absl::Status ParseDeclare() {
    Next();  // declare
    if (Peek().kind != TokenKind::kGlobal) return Expected("'@name'");
    const Token& name = Next();
    RuntimeFunction f;
    f.name = name.text;
    absl::StatusOr<std::vector<Type>> params = ParseTypeList();
    if (!params.ok()) return params.status();
    if (absl::Status s = Expect("->"); !s.ok()) return s;
    absl::StatusOr<std::vector<Type>> results = ParseTypeList();
    if (!results.ok()) return results.status();
    f.signature = {*params, *results};
    if (PeekIs("may_deopt") && Peek().line == name.line) {
      Next();
      f.effects = RuntimeEffects::kMayDeopt;
    }
    absl::StatusOr<const RuntimeFunction*> r = registry_->Register(std::move(f));
    if (!r.ok()) return Error(name, r.status().message());
    return absl::OkStatus();
  }

  // -------------------------------------------------------- functions
  absl::StatusOr<std::unique_ptr<Function>> ParseFunc() {
    Next();  // func
    if (Peek().kind != TokenKind::kGlobal) return Expected("'@name'");
    std::string name = Next().text;
    absl::StatusOr<std::vector<Type>> params = ParseTypeList();
    if (!params.ok()) return params.status();
    if (absl::Status s = Expect("->"); !s.ok()) return s;
    absl::StatusOr<std::vector<Type>> results = ParseTypeList();
    if (!results.ok()) return results.status();
    if (absl::Status s = Expect("{"); !s.ok()) return s;
    auto f = std::make_unique<Function>(name, *params, *results);
    function_ = f.get();
    insts_.clear();
    frame_states_.clear();
    objects_.clear();
    blocks_.clear();
    fs_by_id_.clear();
    objects_by_id_.clear();
    value_def_.clear();
    Block* current = nullptr;
    while (!PeekIs("}")) {
      if (Peek().kind == TokenKind::kEof) return Expected("'}'");
      if (Numbered(Peek(), "fs") && PeekIs("=", 1)) {
        if (absl::Status s = ParseFrameStateLine(); !s.ok()) return s;
      } else if (Numbered(Peek(), "vo") && PeekIs("=", 1)) {
        if (absl::Status s = ParseObjectLine(); !s.ok()) return s;
      } else if (Numbered(Peek(), "block")) {
        absl::StatusOr<Block*> b = ParseBlockHeader();
        if (!b.ok()) return b.status();
        current = *b;
      } else {
        if (current == nullptr) return Error(Peek(), "instruction outside of a block");
        if (absl::Status s = ParseInstruction(current); !s.ok()) return s;
      }
    }
    Next();  // }
    if (absl::Status s = Resolve(); !s.ok()) return s;
    return f;
  }

  absl::Status DefineValue(const Token& t, uint32_t id) {
    if (value_def_.contains(id)) {
      return Error(t, absl::StrCat("value v", id, " is defined twice"));
    }
    value_def_[id] = true;
    return absl::OkStatus();
  }

  absl::StatusOr<Block*> ParseBlockHeader() {
    const Token& t = Peek();
    uint32_t id = *Numbered(t, "block");
    Next();
    if (blocks_.contains(id)) return Error(t, absl::StrCat("block", id, " is defined twice"));
    Block* block = function_->CreateBlock(id);
    blocks_[id] = block;
    if (PeekIs("(")) {
      Next();
      while (!PeekIs(")")) {
        const Token& vt = Peek();
        absl::StatusOr<Ref> v = ParseRef("v", "a parameter (vN: type)");
        if (!v.ok()) return v.status();
        if (absl::Status s = DefineValue(vt, v->id); !s.ok()) return s;
        if (absl::Status s = Expect(":"); !s.ok()) return s;
        absl::StatusOr<Type> type = ParseTypeToken();
        if (!type.ok()) return type.status();
        function_->AddBlockParam(block, *type, v->id);
        if (!PeekIs(",")) break;
        Next();
      }
      if (absl::Status s = Expect(")"); !s.ok()) return s;
    }
    if (absl::Status s = Expect(":"); !s.ok()) return s;
    return block;
  }

  absl::StatusOr<std::vector<ParsedPair>> ParsePairs() {
    std::vector<ParsedPair> pairs;
    if (absl::Status s = Expect("["); !s.ok()) return s;
    while (!PeekIs("]")) {
      ParsedPair p;
      if (PeekIs("illegal")) {
        Next();
      } else {
        p.object = Numbered(Peek(), "vo").has_value();
        absl::StatusOr<Ref> a =
            ParseRef(p.object ? "vo" : "v", "'illegal' or a pair vP:vT or voN:vT");
        if (!a.ok()) return a.status();
        if (absl::Status s = Expect(":"); !s.ok()) return s;
        absl::StatusOr<Ref> b = ParseRef("v", "the tag value of a pair vP:vT");
        if (!b.ok()) return b.status();
        p.payload = *a;
        p.tag = *b;
      }
      pairs.push_back(p);
      if (!PeekIs(",")) break;
      Next();
    }
    if (absl::Status s = Expect("]"); !s.ok()) return s;
    return pairs;
  }

  // vo2 = object 64 [0: ptr v7, 16: ptr vo3] [existing v9 if v8]
  absl::Status ParseObjectLine() {
    const Token& t = Peek();
    uint32_t id = *Numbered(t, "vo");
    Next();
    Next();  // =
    if (objects_by_id_.contains(id)) return Error(t, absl::StrCat("vo", id, " is defined twice"));
    if (!PeekIs("object")) return Expected("'object'");
    Next();
    ParsedObject p;
    p.object = function_->CreateVirtualObject(id);
    objects_by_id_[id] = p.object;
    absl::StatusOr<int64_t> size = ParseInt();
    if (!size.ok()) return size.status();
    p.object->size = *size;
    if (absl::Status s = Expect("["); !s.ok()) return s;
    while (!PeekIs("]")) {
      ParsedField field;
      absl::StatusOr<int64_t> offset = ParseInt();
      if (!offset.ok()) return offset.status();
      field.offset = static_cast<int32_t>(*offset);
      if (absl::Status s = Expect(":"); !s.ok()) return s;
      absl::StatusOr<Type> type = ParseTypeToken();
      if (!type.ok()) return type.status();
      field.type = *type;
      field.object = Numbered(Peek(), "vo").has_value();
      absl::StatusOr<Ref> value =
          ParseRef(field.object ? "vo" : "v", "a field value (vN or voN)");
      if (!value.ok()) return value.status();
      field.value = *value;
      p.fields.push_back(field);
      if (!PeekIs(",")) break;
      Next();
    }
    if (absl::Status s = Expect("]"); !s.ok()) return s;
    if (PeekIs("existing")) {
      Next();
      absl::StatusOr<Ref> existing = ParseRef("v", "the existing value (vN)");
      if (!existing.ok()) return existing.status();
      if (!PeekIs("if")) return Expected("'if'");
      Next();
      absl::StatusOr<Ref> condition = ParseRef("v", "the existing value's condition (vN)");
      if (!condition.ok()) return condition.status();
      p.existing = *existing;
      p.existing_if = *condition;
    }
    objects_.push_back(std::move(p));
    return EndOfLine(t.line);
  }

  absl::Status ParseFrameStateLine() {
    const Token& t = Peek();
    uint32_t id = *Numbered(t, "fs");
    Next();
    Next();  // =
    if (fs_by_id_.contains(id)) return Error(t, absl::StrCat("fs", id, " is defined twice"));
    ParsedFrameState p;
    p.fs = function_->CreateFrameState(id);
    fs_by_id_[id] = p.fs;
    if (PeekIs("eager")) {
      p.fs->deopt_kind = DeoptKind::kEager;
    } else if (PeekIs("lazy")) {
      p.fs->deopt_kind = DeoptKind::kLazy;
    } else {
      return Expected("'eager' or 'lazy'");
    }
    Next();
    if (!PeekIs("interpreter")) return Expected("a frame kind ('interpreter')");
    Next();
    if (!PeekIs("target")) return Expected("'target'");
    Next();
    absl::StatusOr<int64_t> target = ParseInt();
    if (!target.ok()) return target.status();
    p.fs->call_target_id = *target;
    if (!PeekIs("resume")) return Expected("'resume'");
    Next();
    absl::StatusOr<int64_t> resume = ParseInt();
    if (!resume.ok()) return resume.status();
    p.fs->resume_point = *resume;
    if (!PeekIs("locals")) return Expected("'locals'");
    Next();
    absl::StatusOr<std::vector<ParsedPair>> locals = ParsePairs();
    if (!locals.ok()) return locals.status();
    p.locals = *locals;
    if (!PeekIs("stack")) return Expected("'stack'");
    Next();
    absl::StatusOr<std::vector<ParsedPair>> stack = ParsePairs();
    if (!stack.ok()) return stack.status();
    p.stack = *stack;
    if (PeekIs("parent") && Peek().line == t.line) {
      Next();
      absl::StatusOr<Ref> parent = ParseRef("fs", "a frame state (fsN)");
      if (!parent.ok()) return parent.status();
      p.parent = *parent;
    }
    frame_states_.push_back(std::move(p));
    return EndOfLine(t.line);
  }

  absl::Status EndOfLine(int line) {
    if (Peek().kind != TokenKind::kEof && Peek().line == line) {
      return Error(Peek(), absl::StrCat("unexpected ", Describe(Peek()), " at end of line"));
    }
    return absl::OkStatus();
  }

  absl::Status ParseInstruction(Block* block) {
    const Token& start = Peek();
    std::vector<std::pair<const Token*, uint32_t>> result_ids;
    if (Numbered(Peek(), "v")) {
      while (true) {
        const Token& vt = Peek();
        absl::StatusOr<Ref> v = ParseRef("v", "a result value (vN)");
        if (!v.ok()) return v.status();
        result_ids.push_back({&vt, v->id});
        if (!PeekIs(",")) break;
        Next();
      }
      if (absl::Status s = Expect("="); !s.ok()) return s;
    }
    if (Peek().kind != TokenKind::kIdent) return Expected("an opcode");
    const Token& op_token = Next();
    absl::string_view op_text = op_token.text;
    std::optional<Type> suffix;
    size_t dot = op_text.find('.');
    if (dot != absl::string_view::npos) {
      suffix = ParseType(op_text.substr(dot + 1));
      if (!suffix) {
        return Error(op_token, absl::StrCat("unknown type suffix in '", op_text, "'"));
      }
      op_text = op_text.substr(0, dot);
    }
    std::optional<Opcode> op = OpcodeFromName(op_text);
    if (!op) return Error(op_token, absl::StrCat("unknown opcode '", op_text, "'"));
    if (HasTypeSuffix(*op) != suffix.has_value()) {
      return Error(op_token, HasTypeSuffix(*op)
                                 ? absl::StrCat("'", op_text, "' needs a type suffix (.T)")
                                 : absl::StrCat("'", op_text, "' takes no type suffix"));
    }
    const OpcodeInfo& info = GetOpcodeInfo(*op);
    ParsedInst p;
    p.start = &start;
    const int line = op_token.line;
    Instruction* inst = nullptr;
    std::vector<Type> call_types;
    int64_t imm = 0;
    Cond cond = Cond::kEq;
    const RuntimeFunction* callee = nullptr;
    std::string reason;
    DeoptAction action = DeoptAction::kInvalidate;
    const AliasClass* alias = nullptr;
    // After a guard's or deopt's reason: `, keep_code` (on the same line).
    auto optional_action = [&]() -> absl::Status {
      if (!PeekIs(",") || Peek().line != line) return absl::OkStatus();
      Next();
      if (Peek().kind != TokenKind::kIdent || Peek().text != "keep_code") {
        return Expected("'keep_code'");
      }
      Next();
      action = DeoptAction::kKeepCode;
      return absl::OkStatus();
    };
    auto value_list = [&](bool allow_empty) -> absl::Status {
      absl::StatusOr<std::vector<Ref>> refs = ParseValueList(line, allow_empty);
      if (!refs.ok()) return refs.status();
      p.operands = *refs;
      return absl::OkStatus();
    };
    auto fs_ref = [&]() -> absl::Status {
      absl::StatusOr<Ref> r = ParseRef("fs", "a frame state (fsN)");
      if (!r.ok()) return r.status();
      p.frame_state = *r;
      return absl::OkStatus();
    };
    auto comma = [&]() { return Expect(","); };
    absl::Status s;
    switch (info.format) {
      case OpFormat::kConst:
      case OpFormat::kPointerConst: {
        absl::StatusOr<int64_t> v = ParseInt();
        if (!v.ok()) return v.status();
        imm = info.format == OpFormat::kConst ? Normalize(*suffix, *v) : *v;
        break;
      }
      case OpFormat::kAllocFormat: {
        absl::StatusOr<int64_t> v = ParseInt();
        if (!v.ok()) return v.status();
        imm = *v;
        break;
      }
      case OpFormat::kUnary:
      case OpFormat::kBinary:
      case OpFormat::kSelectFormat:
      case OpFormat::kConvert:
        s = value_list(false);
        break;
      case OpFormat::kReturnFormat:
        s = value_list(true);
        break;
      case OpFormat::kCompare: {
        std::optional<Cond> c;
        if (Peek().kind == TokenKind::kIdent) c = ParseCond(Peek().text);
        if (!c) return Expected("a condition (eq ne slt sle sgt sge ult ule ugt uge)");
        Next();
        cond = *c;
        s = value_list(false);
        break;
      }
      case OpFormat::kLoadFormat:
      case OpFormat::kStoreFormat: {
        if (s = value_list(false); !s.ok()) return s;
        if (s = comma(); !s.ok()) return s;
        absl::StatusOr<int64_t> offset = ParseInt();
        if (!offset.ok()) return offset.status();
        if (*offset < INT32_MIN || *offset > INT32_MAX) {
          return Error(Peek(), "offset does not fit in 32 bits");
        }
        imm = *offset;
        // `, alias "class"` (on the same line).
        if (PeekIs(",") && Peek().line == line) {
          Next();
          if (Peek().kind != TokenKind::kIdent || Peek().text != "alias") {
            return Expected("'alias'");
          }
          Next();
          const Token& name_token = Peek();
          if (name_token.kind != TokenKind::kString) return Expected("a quoted alias class name");
          absl::StatusOr<std::string> name = ParseString();
          if (!name.ok()) return name.status();
          if (name->empty()) return Error(name_token, "empty alias class name");
          alias = AliasClass::Get(*name);
        }
        break;
      }
      case OpFormat::kCallRuntimeFormat:
      case OpFormat::kCallTargetFormat: {
        if (Peek().kind != TokenKind::kGlobal) return Expected("'@callee'");
        const Token& callee_token = Next();
        if (*op == Opcode::kCallRuntime) {
          callee = registry_->Find(callee_token.text);
          if (callee == nullptr) {
            return Error(callee_token,
                         absl::StrCat("unknown runtime function '@", callee_token.text, "'"));
          }
        } else if (!absl::SimpleAtoi(callee_token.text, &imm)) {
          return Error(callee_token, "call_target needs a numeric target id (@N)");
        }
        if (s = Expect("("); !s.ok()) return s;
        if (!PeekIs(")")) {
          if (s = value_list(false); !s.ok()) return s;
        }
        if (s = Expect(")"); !s.ok()) return s;
        if (s = Expect("->"); !s.ok()) return s;
        absl::StatusOr<std::vector<Type>> types = ParseTypeList();
        if (!types.ok()) return types.status();
        call_types = *types;
        if (call_types.size() != result_ids.size()) {
          return Error(start, absl::StrCat("call declares ", call_types.size(),
                                           " result types but defines ", result_ids.size(),
                                           " values"));
        }
        if (PeekIs(",") && Peek().line == line) {
          Next();
          s = fs_ref();
        }
        break;
      }
      case OpFormat::kGuardFormat: {
        if (s = value_list(false); !s.ok()) return s;
        if (s = comma(); !s.ok()) return s;
        if (s = fs_ref(); !s.ok()) return s;
        if (s = comma(); !s.ok()) return s;
        absl::StatusOr<std::string> r = ParseString();
        if (!r.ok()) return r.status();
        reason = *r;
        s = optional_action();
        break;
      }
      case OpFormat::kSafepointFormat:
        s = fs_ref();
        break;
      case OpFormat::kDeoptFormat: {
        if (s = fs_ref(); !s.ok()) return s;
        if (s = comma(); !s.ok()) return s;
        absl::StatusOr<std::string> r = ParseString();
        if (!r.ok()) return r.status();
        reason = *r;
        s = optional_action();
        break;
      }
      case OpFormat::kJumpFormat: {
        absl::StatusOr<ParsedBlockCall> call = ParseBlockCall();
        if (!call.ok()) return call.status();
        p.targets.push_back(*call);
        break;
      }
      case OpFormat::kBrFormat: {
        absl::StatusOr<Ref> c = ParseRef("v", "a condition value (vN)");
        if (!c.ok()) return c.status();
        p.operands.push_back(*c);
        for (int i = 0; i < 2; ++i) {
          if (s = comma(); !s.ok()) return s;
          absl::StatusOr<ParsedBlockCall> call = ParseBlockCall();
          if (!call.ok()) return call.status();
          p.targets.push_back(*call);
        }
        break;
      }
      case OpFormat::kNullary:
        break;
    }
    if (!s.ok()) return s;
    if (absl::Status e = EndOfLine(line); !e.ok()) return e;

    // Create the instruction: result types are filled in by Resolve().
    size_t expected_results = info.result == ResultRule::kNoResult     ? 0
                              : info.result == ResultRule::kCallResults ? call_types.size()
                                                                        : 1;
    if (result_ids.size() != expected_results) {
      return Error(start, absl::StrCat("'", info.name, "' defines ", expected_results,
                                       " value(s), found ", result_ids.size()));
    }
    std::vector<Type> types(result_ids.size(), Type::kInvalid);
    if (info.result == ResultRule::kCallResults) types = call_types;
    std::vector<uint32_t> ids;
    for (auto& [token, id] : result_ids) {
      if (absl::Status d = DefineValue(*token, id); !d.ok()) return d;
      ids.push_back(id);
    }
    inst = function_->CreateInstruction(*op, types, ids);
    if (suffix) inst->set_type_suffix(*suffix);
    inst->set_imm(imm);
    inst->set_cond(cond);
    inst->set_callee(callee);
    inst->set_reason(reason);
    inst->set_deopt_action(action);
    inst->set_alias_class(alias);
    block->Append(inst);
    p.inst = inst;
    insts_.push_back(std::move(p));
    return absl::OkStatus();
  }

  // ------------------------------------------------- name resolution
  absl::StatusOr<Value*> LookupValue(const Ref& r) {
    if (!value_def_.contains(r.id)) {
      return absl::InvalidArgumentError(
          PositionedMessage(r.line, r.column, absl::StrCat("use of undefined value v", r.id)));
    }
    return values_by_id_.at(r.id);
  }

  absl::Status Resolve() {
    values_by_id_.clear();
    for (Block* b : function_->blocks()) {
      for (Value* v : b->params()) values_by_id_[v->id()] = v;
      for (Instruction* inst : b->instructions()) {
        for (Value* v : inst->results()) values_by_id_[v->id()] = v;
      }
    }
    auto object = [&](const Ref& r) -> absl::StatusOr<VirtualObject*> {
      auto it = objects_by_id_.find(r.id);
      if (it == objects_by_id_.end()) {
        return absl::InvalidArgumentError(PositionedMessage(
            r.line, r.column, absl::StrCat("use of undefined virtual object vo", r.id)));
      }
      return it->second;
    };
    for (ParsedObject& p : objects_) {
      for (const ParsedField& pf : p.fields) {
        VirtualObject::Field field;
        field.offset = pf.offset;
        field.type = pf.type;
        if (pf.object) {
          absl::StatusOr<VirtualObject*> o = object(pf.value);
          if (!o.ok()) return o.status();
          field.object = *o;
        } else {
          absl::StatusOr<Value*> v = LookupValue(pf.value);
          if (!v.ok()) return v.status();
          field.value = *v;
        }
        p.object->fields.push_back(field);
      }
      if (p.existing) {
        absl::StatusOr<Value*> existing = LookupValue(*p.existing);
        if (!existing.ok()) return existing.status();
        absl::StatusOr<Value*> condition = LookupValue(*p.existing_if);
        if (!condition.ok()) return condition.status();
        p.object->existing = *existing;
        p.object->existing_if = *condition;
      }
    }
    auto pair = [&](const ParsedPair& pp) -> absl::StatusOr<ValuePair> {
      if (!pp.payload) return ValuePair::Illegal();
      absl::StatusOr<Value*> b = LookupValue(*pp.tag);
      if (!b.ok()) return b.status();
      if (pp.object) {
        absl::StatusOr<VirtualObject*> o = object(*pp.payload);
        if (!o.ok()) return o.status();
        return ValuePair{nullptr, *b, *o};
      }
      absl::StatusOr<Value*> a = LookupValue(*pp.payload);
      if (!a.ok()) return a.status();
      return ValuePair{*a, *b};
    };
    auto frame_state = [&](const Ref& r) -> absl::StatusOr<FrameState*> {
      auto it = fs_by_id_.find(r.id);
      if (it == fs_by_id_.end()) {
        return absl::InvalidArgumentError(PositionedMessage(
            r.line, r.column, absl::StrCat("use of undefined frame state fs", r.id)));
      }
      return it->second;
    };
    for (ParsedFrameState& p : frame_states_) {
      for (auto [parsed, out] : {std::pair{&p.locals, &p.fs->locals},
                                 std::pair{&p.stack, &p.fs->stack}}) {
        for (const ParsedPair& pp : *parsed) {
          absl::StatusOr<ValuePair> v = pair(pp);
          if (!v.ok()) return v.status();
          out->push_back(*v);
        }
      }
      if (p.parent) {
        absl::StatusOr<FrameState*> parent = frame_state(*p.parent);
        if (!parent.ok()) return parent.status();
        p.fs->parent = *parent;
      }
    }
    for (ParsedInst& p : insts_) {
      for (const Ref& r : p.operands) {
        absl::StatusOr<Value*> v = LookupValue(r);
        if (!v.ok()) return v.status();
        p.inst->mutable_operands().push_back(*v);
      }
      if (p.frame_state) {
        absl::StatusOr<FrameState*> fs = frame_state(*p.frame_state);
        if (!fs.ok()) return fs.status();
        p.inst->set_frame_state(*fs);
      }
      for (const ParsedBlockCall& call : p.targets) {
        auto it = blocks_.find(call.block.id);
        if (it == blocks_.end()) {
          return absl::InvalidArgumentError(
              PositionedMessage(call.block.line, call.block.column,
                                absl::StrCat("use of undefined block block", call.block.id)));
        }
        BlockCall bc{it->second, {}};
        for (const Ref& r : call.args) {
          absl::StatusOr<Value*> v = LookupValue(r);
          if (!v.ok()) return v.status();
          bc.args.push_back(*v);
        }
        p.inst->mutable_targets().push_back(std::move(bc));
      }
    }
    // Result types, to a fixed point (values may be used before the line
    // defining them).
    for (bool changed = true; changed;) {
      changed = false;
      for (ParsedInst& p : insts_) {
        if (p.inst->results().empty() || p.inst->results()[0]->type() != Type::kInvalid) continue;
        std::optional<std::vector<Type>> types = InferResultTypes(*p.inst);
        if (!types || types->size() != p.inst->results().size()) continue;
        for (size_t i = 0; i < types->size(); ++i) p.inst->results()[i]->set_type((*types)[i]);
        changed = true;
      }
    }
    for (ParsedInst& p : insts_) {
      for (Value* v : p.inst->results()) {
        if (v->type() == Type::kInvalid) {
          return Error(*p.start, absl::StrCat("cannot infer the type of v", v->id(),
                                              " (its operands' types are unknown)"));
        }
      }
    }
    return absl::OkStatus();
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  RuntimeRegistry* registry_;
  Function* function_ = nullptr;
  std::vector<ParsedInst> insts_;
  std::vector<ParsedFrameState> frame_states_;
  std::vector<ParsedObject> objects_;
  absl::flat_hash_map<uint32_t, VirtualObject*> objects_by_id_;
  absl::flat_hash_map<uint32_t, Block*> blocks_;
  absl::flat_hash_map<uint32_t, FrameState*> fs_by_id_;
  absl::flat_hash_map<uint32_t, bool> value_def_;
  absl::flat_hash_map<uint32_t, Value*> values_by_id_;
};

}  // namespace

absl::StatusOr<std::vector<std::unique_ptr<Function>>> ParseFunctions(
    absl::string_view text, RuntimeRegistry* registry) {
  absl::StatusOr<std::vector<Token>> tokens = Tokenize(text);
  if (!tokens.ok()) return tokens.status();
  Parser parser(std::move(*tokens), registry);
  return parser.ParseAll();
}

absl::StatusOr<std::unique_ptr<Function>> ParseFunction(absl::string_view text,
                                                        RuntimeRegistry* registry) {
  absl::StatusOr<std::vector<std::unique_ptr<Function>>> fs = ParseFunctions(text, registry);
  if (!fs.ok()) return fs.status();
  if (fs->size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected exactly one function, found ", fs->size()));
  }
  return std::move((*fs)[0]);
}

}  // namespace morel::ir
