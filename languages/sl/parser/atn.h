#ifndef MOREL_LANGUAGES_SL_PARSER_ATN_H_
#define MOREL_LANGUAGES_SL_PARSER_ATN_H_

// The augmented transition network (ATN) of the reference SL grammar, built
// the way the ANTLR 4 tool builds it, plus the lookahead computations of
// ANTLR's LL1Analyzer. The hand-written parser walks these states (it sets
// the current state before each match, sync and prediction exactly where the
// generated reference parser does), so syntax-error messages and recovery
// decisions match the reference (sl_spec.md §4.4, §4.5).

#include <memory>
#include <mutex>
#include <vector>

#include "languages/sl/parser/tokens.h"

namespace morel::sl {

enum class AtnStateType {
  kBasic,
  kRuleStart,
  kBlockStart,
  kBlockEnd,
  kRuleStop,
  kStarBlockStart,
  kStarLoopEntry,
  kLoopEnd,
  kStarLoopBack,
};

enum AtnRule {
  kRuleSimplelanguage,
  kRuleFunction,
  kRuleBlock,
  kRuleStatement,
  kRuleBreakStatement,
  kRuleContinueStatement,
  kRuleExpressionStatement,
  kRuleDebuggerStatement,
  kRuleWhileStatement,
  kRuleIfStatement,
  kRuleReturnStatement,
  kRuleExpression,
  kRuleLogicTerm,
  kRuleLogicFactor,
  kRuleArithmetic,
  kRuleTerm,
  kRuleFactor,
  kRuleMemberExpression,
  kRuleCount,
};

struct AtnTransition {
  enum Kind { kEpsilon, kAtom, kRule };
  Kind kind = kEpsilon;
  int target = -1;
  int label = 0;    // kAtom: the token type (kTokEof for EOF)
  int follow = -1;  // kRule: the state after the rule reference
  bool IsEpsilon() const { return kind != kAtom; }
};

struct AtnState {
  AtnStateType type = AtnStateType::kBasic;
  int rule = 0;
  std::vector<AtnTransition> transitions;
  // True if every transition is an epsilon or rule transition (ANTLR's
  // onlyHasEpsilonTransitions; false for a state without transitions).
  bool epsilon_only = false;
};

// The states the parser sets before matches, syncs, predictions and rule
// invocations. Names: <rule prefix>_<element>. For a token or rule reference
// the state is the one holding its transition; "entry"/"back" are a star
// loop's StarLoopEntry and StarLoopBack states; "opt"/"block" are the block
// start (decision) states of optional blocks and alternative blocks.
struct SlStates {
  // simplelanguage : function function* EOF
  int sl_function, sl_loop_entry, sl_loop_back, sl_function2, sl_eof;
  // function : 'function' IDENTIFIER '(' (IDENTIFIER (',' IDENTIFIER)*)? ')' block
  int fn_keyword, fn_name, fn_lparen, fn_params_opt, fn_param1;
  int fn_params_entry, fn_params_back, fn_comma, fn_param2, fn_rparen, fn_body;
  // block : '{' statement* '}'
  int bl_lbrace, bl_entry, bl_back, bl_statement, bl_rbrace;
  // statement : while | break | continue | if | return | expression | debugger
  int st_block, st_while, st_break, st_continue, st_if, st_return, st_expr,
      st_debugger;
  int br_keyword, br_semi, co_keyword, co_semi, de_keyword, de_semi;
  int es_expr, es_semi;
  int wh_keyword, wh_lparen, wh_cond, wh_rparen, wh_body;
  int if_keyword, if_lparen, if_cond, if_rparen, if_then, if_else_opt,
      if_else, if_else_body;
  int rt_keyword, rt_opt, rt_expr, rt_semi;
  // expression : logic_term (OP_OR logic_term)*  and the other binary levels
  int ex_first, ex_entry, ex_back, ex_op, ex_next;
  int lt_first, lt_entry, lt_back, lt_op, lt_next;
  int lf_first, lf_opt, lf_op, lf_second;
  int ar_first, ar_entry, ar_back, ar_op, ar_next;
  int te_first, te_entry, te_back, te_op, te_next;
  // factor : IDENTIFIER member_expression* | STRING | NUMBER | '(' expr ')'
  int fa_block, fa_ident, fa_entry, fa_back, fa_member, fa_string, fa_number,
      fa_lparen, fa_expr, fa_rparen;
  // member_expression : '(' (expr (',' expr)*)? ')' | '=' expr | '.' IDENT
  //                   | '[' expr ']'
  int me_block, me_lparen, me_args_opt, me_arg1, me_args_entry, me_args_back,
      me_comma, me_arg2, me_rparen, me_assign, me_value, me_dot, me_field,
      me_lbracket, me_index, me_rbracket;
};

class Atn {
 public:
  const AtnState& state(int number) const { return states_[number]; }
  int state_count() const { return static_cast<int>(states_.size()); }
  int rule_start(int rule) const { return rule_start_[rule]; }
  int rule_stop(int rule) const { return rule_stop_[rule]; }
  const SlStates& s() const { return named_; }

  // ANTLR ATN.nextTokens(s): the tokens that can follow `state` within its
  // rule, plus TokenSet::kEpsilon if the rule's end is reachable. Computed
  // on a state's first query (thread-safe): computing every state's set up
  // front cost each process about a millisecond before parsing one token.
  const TokenSet& NextTokens(int state) const;

  // LL1Analyzer.LOOK(s, null, ctx): like NextTokens but continuing into the
  // callers; `follow_stack` lists the return states innermost first, and <EOF>
  // is added when the bottom of the stack is reached.
  TokenSet NextTokensInContext(int state,
                               const std::vector<int>& follow_stack) const;

  // ATN.getExpectedTokens(state, ctx) where ctx is given by the invoking
  // states of the active rule invocations, outermost first (the start rule
  // excluded).
  TokenSet ExpectedTokens(int state,
                          const std::vector<int>& invoking_states) const;

  // The return state of the rule invocation held by `invoking_state`.
  int FollowOf(int invoking_state) const {
    return states_[invoking_state].transitions[0].follow;
  }

 private:
  friend class AtnBuilder;
  std::vector<AtnState> states_;
  std::vector<int> rule_start_;
  std::vector<int> rule_stop_;
  struct LazyTokens {
    std::once_flag once;
    TokenSet tokens;
  };
  mutable std::unique_ptr<LazyTokens[]> next_tokens_;
  SlStates named_;
};

// The ATN of the SL grammar (built once, immutable).
const Atn& SlAtn();

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_ATN_H_
