#ifndef MOREL_LANGUAGES_SL_PARSER_PREDICTION_H_
#define MOREL_LANGUAGES_SL_PARSER_PREDICTION_H_

// ANTLR 4's adaptive prediction (ParserATNSimulator.adaptivePredict) for the
// decisions of the SL grammar that are not LL(1): SLL prediction with global
// follow links first; on an SLL conflict, full-context LL prediction with the
// parser's real invocation stack. It decides, e.g., whether `a < b < c`
// stops after `a < b` (it does) and reports "no viable alternative" exactly
// where the reference does (`x = 1 + * 2` -> at input '+*').

#include <memory>
#include <vector>

#include "languages/sl/parser/atn.h"
#include "languages/sl/parser/token_stream.h"

namespace morel::sl {

struct NoViableAlt {
  int start_index = 0;      // token where the decision started
  int offending_index = 0;  // token where no alternative remained
};

// The SLL part of prediction depends only on the decision and the upcoming
// token types, so its results are cached per parse, like ANTLR's DFA: each
// state is the configuration set reached by a token-type sequence, with the
// outcome (continue, predicted alternative, conflict, no viable alternative)
// of each next token. Full-context prediction is never cached.
class PredictionCache {
 public:
  PredictionCache();
  ~PredictionCache();
  PredictionCache(const PredictionCache&) = delete;
  PredictionCache& operator=(const PredictionCache&) = delete;

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Predicts the alternative (1-based) of the decision at `decision_state`.
// `follow_stack` is the parser's invocation stack as return states,
// innermost first. Leaves the stream position unchanged. Returns 0 and fills
// *error if no alternative is viable; returns 0 if the stream failed (lexer
// error while looking ahead).
int AdaptivePredict(const Atn& atn, int decision_state,
                    const std::vector<int>& follow_stack, TokenStream& input,
                    PredictionCache* cache, NoViableAlt* error);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_PREDICTION_H_
