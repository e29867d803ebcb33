#ifndef MOREL_LANGUAGES_SL_PARSER_RECOGNIZER_H_
#define MOREL_LANGUAGES_SL_PARSER_RECOGNIZER_H_

// The parser runtime: the current ATN state, the stack of active rule
// invocations, matching, and ANTLR 4's DefaultErrorStrategy (sync before
// decisions, single-token deletion and insertion in match, the "expected
// tokens" of the last successful sync). Only the first error is reported; it
// is latched in the token stream and every later call is a no-op, so the
// grammar code just unwinds.

#include <optional>
#include <vector>

#include "languages/sl/parser/atn.h"
#include "languages/sl/parser/prediction.h"
#include "languages/sl/parser/token_stream.h"
#include "languages/sl/parser/tokens.h"

namespace morel::sl {

class Recognizer {
 public:
  Recognizer(const Atn& atn, TokenStream& input) : atn_(atn), input_(input) {}

  const SlStates& s() const { return atn_.s(); }
  bool failed() const { return input_.failed(); }

  // The generated parser's setState(n).
  void SetState(int state) { state_ = state; }
  // Enters the rule invoked by the rule transition of the current state.
  void EnterRule() { invoking_.push_back(state_); }
  // Leaves the current rule; the state becomes the invoking state again.
  void ExitRule() {
    state_ = invoking_.back();
    invoking_.pop_back();
  }

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
  struct SavedContext {
    int state;
    std::vector<int> invoking;
  };

  std::vector<int> FollowStack() const;
  TokenSet ExpectedTokens() const {
    return atn_.ExpectedTokens(state_, invoking_);
  }
  bool SingleTokenDeletion();
  bool SingleTokenInsertion();
  void ReportUnwantedToken();
  void ReportMissingToken();
  void ReportInputMismatch(const TokenSet& expected);
  void ReportNoViableAlt(int start_index, int offending_index);
  void Report(const Token& offending, std::string message);

  const Atn& atn_;
  TokenStream& input_;
  int state_ = 0;
  std::vector<int> invoking_;  // outermost first; the start rule excluded
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
