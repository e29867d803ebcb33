#ifndef MOREL_LANGUAGES_SL_PARSER_RECOGNIZER_H_
#define MOREL_LANGUAGES_SL_PARSER_RECOGNIZER_H_

// The parser runtime: the current ATN state, the stack of active rule
// invocations, matching, and ANTLR 4's DefaultErrorStrategy (sync before
// decisions, single-token deletion and insertion in match, the "expected
// tokens" of the last successful sync). Only the first error is reported; it
// is latched in the token stream and every later call is a no-op, so the
// grammar code just unwinds.

#include <cstdint>
#include <optional>
#include <vector>

#include "languages/sl/parser/atn.h"
#include "languages/sl/parser/prediction.h"
#include "languages/sl/parser/syntax_parser.h"
#include "languages/sl/parser/token_stream.h"
#include "languages/sl/parser/tokens.h"

namespace morel::sl {

// What a parse in PredictionMode::kSll learned that a later kLl parse of the
// same tokens may rely on: the groups (see Recognizer::BeginGroup) it closed
// without an error, by the index of their first token.
class ClosedGroups {
 public:
  void Add(int start_index) {
    if (start_index >= static_cast<int>(closed_.size())) {
      closed_.resize(start_index + 1, false);
    }
    closed_[start_index] = true;
  }
  bool Contains(int start_index) const {
    return start_index < static_cast<int>(closed_.size()) &&
           closed_[start_index];
  }

 private:
  std::vector<bool> closed_;
};

class Recognizer {
 public:
  // In kSll mode, records the groups it closes in `closed` (may be null). In
  // kLl mode with `closed` from an earlier kSll parse of the same tokens,
  // decisions inside those groups skip full-context prediction (README.md,
  // "Parsing strategy") until a full-context prediction disagrees with kSll.
  Recognizer(const Atn& atn, TokenStream& input, PredictionMode mode,
             ClosedGroups* closed)
      : atn_(atn), input_(input), mode_(mode), closed_(closed) {
    if (mode == PredictionMode::kLl && closed != nullptr) {
      prediction_cache_.SetFullContextBudget(
          kFullContextBudgetPerToken * input.size() + kFullContextBudgetBase);
    }
  }

  const SlStates& s() const { return atn_.s(); }
  bool failed() const { return input_.failed(); }

  // The generated parser's setState(n).
  void SetState(int state) { state_ = state; }
  // Enters the rule invoked by the rule transition of the current state.
  // Beyond kMaxRuleDepth active invocations it reports "nesting too deep" at
  // the current token; as after any error, the grammar code then unwinds at
  // its next match or sync (a few calls later). ExitRule is still due.
  void EnterRule();
  // Leaves the current rule; the state becomes the invoking state again.
  void ExitRule();

  // The most rule invocations active at once (the start rule excluded). The
  // parser recurses once per invocation. A level of the syntax tree costs at
  // most 7 invocations (`(` expression `)`, `f(` expression `)`, `x =`
  // expression), so a parse that needs more is about as deep as
  // kMaxNestingDepth (syntax_parser.h) allows and is stopped before its
  // recursion does harm.
  static constexpr int kMaxRuleDepth = 7 * kMaxNestingDepth + 64;

  // Whether the error reported is the kMaxRuleDepth one.
  bool nesting_too_deep() const { return nesting_too_deep_; }

  // The full-context prediction budget of a kLl parse that follows a failed
  // kSll parse, in closure steps per token (plus kFullContextBudgetBase).
  // Full-context prediction is the reference's algorithm and can be cubic on
  // erroneous input (`x = x = ... = x = 1 + ;` with n assignments: O(n) scans
  // of O(n) steps of O(n) configurations); beyond the budget the parse
  // stops, and ParseSyntax reports the kSll parse's error instead.
  static constexpr int64_t kFullContextBudgetPerToken = 256;
  static constexpr int64_t kFullContextBudgetBase = int64_t{1} << 22;
  // Whether this parse stopped because the budget ran out.
  bool budget_exhausted() const { return budget_exhausted_; }

  // A group is an expression that ends at a token where every
  // interpretation of it must agree: the expression of an expression or
  // return statement (`;`), a `while`/`if` condition (`)`), a parenthesized
  // expression (`)`), a call argument (`,` or `)`) and an index (`]`).
  // BeginGroup is called before the expression, EndGroup after its closing
  // token was matched.
  void BeginGroup() { groups_.push_back(input_.index()); }
  void EndGroup();

  const Token& LT(int k) { return input_.LT(k); }
  int LA(int k) { return input_.LA(k); }

  // Parser.match: consumes and returns the current token if it has `type`;
  // otherwise recovers inline the way the reference does, which here means
  // reporting the first error. Returns null after an error.
  const Token* Match(int type);

  // DefaultErrorStrategy.sync at the current state. False after an error.
  bool Sync();

  // adaptivePredict for the decision at `decision_state`. 0 after an error.
  int Predict(int decision_state);

  // Throws NoViableAltException(this): the default branch of an LL(1)
  // alternative block.
  void ReportNoViableAltHere();

 private:
  // A rule invocation: the invoking state and the enclosing invocation's
  // index in frames_ (-1 for none). Frames form a persistent stack, so
  // saving the invocation stack (DefaultErrorStrategy's nextTokensContext)
  // is just saving the innermost frame's index.
  struct Frame {
    int invoking_state;
    int parent;
  };
  struct SavedContext {
    int state;
    int top;
  };

  // The invoking states of the invocations from `top` outwards, outermost
  // first.
  std::vector<int> InvokingStates(int top) const;
  std::vector<int> FollowStack() const;
  TokenSet ExpectedTokens() const {
    return atn_.ExpectedTokens(state_, InvokingStates(top_));
  }
  // Drops the frames no live stack refers to.
  void TrimFrames();
  bool SingleTokenDeletion();
  bool SingleTokenInsertion();
  void ReportUnwantedToken();
  void ReportMissingToken();
  void ReportInputMismatch(const TokenSet& expected);
  void ReportNoViableAlt(int start_index, int offending_index);
  void Report(const Token& offending, std::string message);

  const Atn& atn_;
  TokenStream& input_;
  const PredictionMode mode_;
  ClosedGroups* const closed_;
  bool diverged_ = false;  // a kLl prediction differed from kSll's
  bool nesting_too_deep_ = false;
  bool budget_exhausted_ = false;
  int state_ = 0;
  std::vector<Frame> frames_;  // the start rule excluded
  int top_ = -1;               // the innermost invocation
  int depth_ = 0;              // active invocations
  std::vector<int> groups_;    // open groups by first token index
  // DefaultErrorStrategy.nextTokensContext/nextTokensState: where the last
  // sync saw a token that only an enclosing rule could accept.
  std::optional<SavedContext> next_tokens_context_;
  PredictionCache prediction_cache_;
};

// ANTLR's getTokenErrorDisplay: the text in single quotes with CR, LF and TAB
// escaped.
std::string QuoteForError(const std::string& text);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_RECOGNIZER_H_
