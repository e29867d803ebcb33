#ifndef MOREL_LANGUAGES_SL_PARSER_PREDICTION_H_
#define MOREL_LANGUAGES_SL_PARSER_PREDICTION_H_

// ANTLR 4's adaptive prediction (ParserATNSimulator.adaptivePredict) for the
// decisions of the SL grammar that are not LL(1): SLL prediction with global
// follow links first; on an SLL conflict, full-context LL prediction with the
// parser's real invocation stack. It decides, e.g., whether `a < b < c`
// stops after `a < b` (it does) and reports "no viable alternative" exactly
// where the reference does (`x = 1 + * 2` -> at input '+*').

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "languages/sl/parser/atn.h"
#include "languages/sl/parser/token_stream.h"

namespace morel::sl {

struct NoViableAlt {
  int start_index = 0;      // token where the decision started
  int offending_index = 0;  // token where no alternative remained
  // Set instead when full-context prediction ran out of its budget (see
  // PredictionCache::SetFullContextBudget).
  bool budget_exhausted = false;
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

  // Bounds the total work of full-context prediction in this parse, in
  // closure steps; beyond it AdaptivePredict returns 0 with
  // NoViableAlt::budget_exhausted. Unbounded by default.
  void SetFullContextBudget(int64_t steps);

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// ANTLR's prediction modes. kLl is the reference's (SLL, then full-context
// LL on an SLL conflict). kSll resolves an SLL conflict to its minimum
// alternative without the full-context pass: it never takes longer than a
// DFA walk, and a parse in kSll that ends without a syntax error built the
// tree kLl builds (see README.md, "Parsing strategy").
enum class PredictionMode { kLl, kSll };

// Returns the parser's invocation stack as return states, innermost first.
// Called only when full-context prediction runs.
using FollowStackFn = std::function<std::vector<int>()>;

// Predicts the alternative (1-based) of the decision at `decision_state`.
// Leaves the stream position unchanged. Returns 0 and fills *error if no
// alternative is viable; returns 0 if the stream failed (lexer error while
// looking ahead).
int AdaptivePredict(const Atn& atn, int decision_state, PredictionMode mode,
                    const FollowStackFn& follow_stack, TokenStream& input,
                    PredictionCache* cache, NoViableAlt* error);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_PREDICTION_H_
