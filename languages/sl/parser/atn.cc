#include "languages/sl/parser/atn.h"

#include <bitset>
#include <set>
#include <utility>
#include <vector>

namespace morel::sl {

// Builds the ATN with the shapes of ANTLR's ParserATNFactory: a token or rule
// reference is two basic states joined by its transition; an alternative
// block is BlockStart -> alts -> BlockEnd; "x?" adds a BlockStart -> BlockEnd
// bypass as the last alternative; "x*" is StarLoopEntry -> {StarBlockStart ..
// BlockEnd -> StarLoopBack -> StarLoopEntry, LoopEnd}. Rule stop states get
// epsilon "follow links" to every return state, like the deserialized ATN.
class AtnBuilder {
 public:
  struct Handle {
    int left;
    int right;
  };

  explicit AtnBuilder(Atn* atn) : atn_(atn) {}

  void Build();

 private:
  int NewState(AtnStateType type) {
    AtnState state;
    state.type = type;
    state.rule = rule_;
    atn_->states_.push_back(std::move(state));
    return static_cast<int>(atn_->states_.size()) - 1;
  }

  void AddTransition(int from, AtnTransition t) {
    AtnState& s = atn_->states_[from];
    if (s.transitions.empty()) {
      s.epsilon_only = t.IsEpsilon();
    } else if (s.epsilon_only != t.IsEpsilon()) {
      s.epsilon_only = false;
    }
    s.transitions.push_back(t);
  }

  void Epsilon(int from, int to) {
    AtnTransition t;
    t.kind = AtnTransition::kEpsilon;
    t.target = to;
    AddTransition(from, t);
  }

  Handle Tok(int type, int* mark) {
    Handle h{NewState(AtnStateType::kBasic), NewState(AtnStateType::kBasic)};
    AtnTransition t;
    t.kind = AtnTransition::kAtom;
    t.target = h.right;
    t.label = type;
    AddTransition(h.left, t);
    if (mark != nullptr) *mark = h.left;
    return h;
  }

  Handle Ref(int rule, int* mark) {
    Handle h{NewState(AtnStateType::kBasic), NewState(AtnStateType::kBasic)};
    AtnTransition t;
    t.kind = AtnTransition::kRule;
    t.target = atn_->rule_start_[rule];
    t.follow = h.right;
    AddTransition(h.left, t);
    if (mark != nullptr) *mark = h.left;
    return h;
  }

  Handle Seq(std::initializer_list<Handle> elements) {
    const Handle* prev = nullptr;
    for (const Handle& h : elements) {
      if (prev != nullptr) Epsilon(prev->right, h.left);
      prev = &h;
    }
    return Handle{elements.begin()->left, (elements.end() - 1)->right};
  }

  Handle Block(std::initializer_list<Handle> alts, int* mark,
               AtnStateType start_type = AtnStateType::kBlockStart) {
    Handle h{NewState(start_type), NewState(AtnStateType::kBlockEnd)};
    for (const Handle& alt : alts) {
      Epsilon(h.left, alt.left);
      Epsilon(alt.right, h.right);
    }
    if (mark != nullptr) *mark = h.left;
    return h;
  }

  Handle Optional(Handle content, int* mark) {
    Handle h = Block({content}, mark);
    Epsilon(h.left, h.right);
    return h;
  }

  Handle Star(Handle body, int* entry_mark, int* back_mark) {
    Handle block = Block({body}, nullptr, AtnStateType::kStarBlockStart);
    const int entry = NewState(AtnStateType::kStarLoopEntry);
    const int end = NewState(AtnStateType::kLoopEnd);
    const int back = NewState(AtnStateType::kStarLoopBack);
    Epsilon(entry, block.left);  // alt 1: enter the loop
    Epsilon(entry, end);         // alt 2: exit
    Epsilon(block.right, back);
    Epsilon(back, entry);
    *entry_mark = entry;
    *back_mark = back;
    return Handle{entry, end};
  }

  void Rule(int rule, Handle body) {
    Epsilon(atn_->rule_start_[rule], body.left);
    Epsilon(body.right, atn_->rule_stop_[rule]);
  }

  void Enter(int rule) { rule_ = rule; }

  void AddFollowLinks() {
    const int n = atn_->state_count();
    for (int i = 0; i < n; ++i) {
      for (const AtnTransition& t : atn_->states_[i].transitions) {
        if (t.kind != AtnTransition::kRule) continue;
        Epsilon(atn_->rule_stop_[atn_->states_[t.target].rule], t.follow);
      }
    }
  }

  Atn* atn_;
  int rule_ = 0;
};

void AtnBuilder::Build() {
  atn_->rule_start_.resize(kRuleCount);
  atn_->rule_stop_.resize(kRuleCount);
  for (int r = 0; r < kRuleCount; ++r) {
    rule_ = r;
    atn_->rule_start_[r] = NewState(AtnStateType::kRuleStart);
    atn_->rule_stop_[r] = NewState(AtnStateType::kRuleStop);
  }
  SlStates& s = atn_->named_;

  Enter(kRuleSimplelanguage);
  Rule(kRuleSimplelanguage,
       Seq({Ref(kRuleFunction, &s.sl_function),
            Star(Ref(kRuleFunction, &s.sl_function2), &s.sl_loop_entry,
                 &s.sl_loop_back),
            Tok(kTokEof, &s.sl_eof)}));

  Enter(kRuleFunction);
  Rule(kRuleFunction,
       Seq({Tok(kTokFunction, &s.fn_keyword), Tok(kTokIdentifier, &s.fn_name),
            Tok(kTokLParen, &s.fn_lparen),
            Optional(Seq({Tok(kTokIdentifier, &s.fn_param1),
                          Star(Seq({Tok(kTokComma, &s.fn_comma),
                                    Tok(kTokIdentifier, &s.fn_param2)}),
                               &s.fn_params_entry, &s.fn_params_back)}),
                     &s.fn_params_opt),
            Tok(kTokRParen, &s.fn_rparen), Ref(kRuleBlock, &s.fn_body)}));

  Enter(kRuleBlock);
  Rule(kRuleBlock,
       Seq({Tok(kTokLBrace, &s.bl_lbrace),
            Star(Ref(kRuleStatement, &s.bl_statement), &s.bl_entry,
                 &s.bl_back),
            Tok(kTokRBrace, &s.bl_rbrace)}));

  Enter(kRuleStatement);
  Rule(kRuleStatement,
       Block({Ref(kRuleWhileStatement, &s.st_while),
              Ref(kRuleBreakStatement, &s.st_break),
              Ref(kRuleContinueStatement, &s.st_continue),
              Ref(kRuleIfStatement, &s.st_if),
              Ref(kRuleReturnStatement, &s.st_return),
              Ref(kRuleExpressionStatement, &s.st_expr),
              Ref(kRuleDebuggerStatement, &s.st_debugger)},
             &s.st_block));

  Enter(kRuleBreakStatement);
  Rule(kRuleBreakStatement, Seq({Tok(kTokBreak, &s.br_keyword),
                                 Tok(kTokSemicolon, &s.br_semi)}));
  Enter(kRuleContinueStatement);
  Rule(kRuleContinueStatement, Seq({Tok(kTokContinue, &s.co_keyword),
                                    Tok(kTokSemicolon, &s.co_semi)}));
  Enter(kRuleExpressionStatement);
  Rule(kRuleExpressionStatement, Seq({Ref(kRuleExpression, &s.es_expr),
                                      Tok(kTokSemicolon, &s.es_semi)}));
  Enter(kRuleDebuggerStatement);
  Rule(kRuleDebuggerStatement, Seq({Tok(kTokDebugger, &s.de_keyword),
                                    Tok(kTokSemicolon, &s.de_semi)}));

  Enter(kRuleWhileStatement);
  Rule(kRuleWhileStatement,
       Seq({Tok(kTokWhile, &s.wh_keyword), Tok(kTokLParen, &s.wh_lparen),
            Ref(kRuleExpression, &s.wh_cond), Tok(kTokRParen, &s.wh_rparen),
            Ref(kRuleBlock, &s.wh_body)}));

  Enter(kRuleIfStatement);
  Rule(kRuleIfStatement,
       Seq({Tok(kTokIf, &s.if_keyword), Tok(kTokLParen, &s.if_lparen),
            Ref(kRuleExpression, &s.if_cond), Tok(kTokRParen, &s.if_rparen),
            Ref(kRuleBlock, &s.if_then),
            Optional(Seq({Tok(kTokElse, &s.if_else),
                          Ref(kRuleBlock, &s.if_else_body)}),
                     &s.if_else_opt)}));

  Enter(kRuleReturnStatement);
  Rule(kRuleReturnStatement,
       Seq({Tok(kTokReturn, &s.rt_keyword),
            Optional(Ref(kRuleExpression, &s.rt_expr), &s.rt_opt),
            Tok(kTokSemicolon, &s.rt_semi)}));

  Enter(kRuleExpression);
  Rule(kRuleExpression,
       Seq({Ref(kRuleLogicTerm, &s.ex_first),
            Star(Seq({Tok(kTokOr, &s.ex_op), Ref(kRuleLogicTerm, &s.ex_next)}),
                 &s.ex_entry, &s.ex_back)}));

  Enter(kRuleLogicTerm);
  Rule(kRuleLogicTerm,
       Seq({Ref(kRuleLogicFactor, &s.lt_first),
            Star(Seq({Tok(kTokAnd, &s.lt_op),
                      Ref(kRuleLogicFactor, &s.lt_next)}),
                 &s.lt_entry, &s.lt_back)}));

  Enter(kRuleLogicFactor);
  Rule(kRuleLogicFactor,
       Seq({Ref(kRuleArithmetic, &s.lf_first),
            Optional(Seq({Tok(kTokCompare, &s.lf_op),
                          Ref(kRuleArithmetic, &s.lf_second)}),
                     &s.lf_opt)}));

  Enter(kRuleArithmetic);
  Rule(kRuleArithmetic,
       Seq({Ref(kRuleTerm, &s.ar_first),
            Star(Seq({Tok(kTokAdd, &s.ar_op), Ref(kRuleTerm, &s.ar_next)}),
                 &s.ar_entry, &s.ar_back)}));

  Enter(kRuleTerm);
  Rule(kRuleTerm,
       Seq({Ref(kRuleFactor, &s.te_first),
            Star(Seq({Tok(kTokMul, &s.te_op), Ref(kRuleFactor, &s.te_next)}),
                 &s.te_entry, &s.te_back)}));

  Enter(kRuleFactor);
  Rule(kRuleFactor,
       Block({Seq({Tok(kTokIdentifier, &s.fa_ident),
                   Star(Ref(kRuleMemberExpression, &s.fa_member), &s.fa_entry,
                        &s.fa_back)}),
              Tok(kTokString, &s.fa_string), Tok(kTokNumber, &s.fa_number),
              Seq({Tok(kTokLParen, &s.fa_lparen),
                   Ref(kRuleExpression, &s.fa_expr),
                   Tok(kTokRParen, &s.fa_rparen)})},
             &s.fa_block));

  Enter(kRuleMemberExpression);
  Rule(kRuleMemberExpression,
       Block({Seq({Tok(kTokLParen, &s.me_lparen),
                   Optional(Seq({Ref(kRuleExpression, &s.me_arg1),
                                 Star(Seq({Tok(kTokComma, &s.me_comma),
                                           Ref(kRuleExpression, &s.me_arg2)}),
                                      &s.me_args_entry, &s.me_args_back)}),
                            &s.me_args_opt),
                   Tok(kTokRParen, &s.me_rparen)}),
              Seq({Tok(kTokAssign, &s.me_assign),
                   Ref(kRuleExpression, &s.me_value)}),
              Seq({Tok(kTokDot, &s.me_dot),
                   Tok(kTokIdentifier, &s.me_field)}),
              Seq({Tok(kTokLBracket, &s.me_lbracket),
                   Ref(kRuleExpression, &s.me_index),
                   Tok(kTokRBracket, &s.me_rbracket)})},
             &s.me_block));

  // NextTokens (computed lazily) gives the same result as ANTLR's LOOK with
  // a null context although the follow links exist by then: LOOK stops at
  // rule stop states, the only states that carry them.
  atn_->next_tokens_ = std::make_unique<Atn::LazyTokens[]>(atn_->states_.size());
  AddFollowLinks();
}

namespace {

// LL1Analyzer._LOOK. `stack` holds return states innermost first; with
// `null_bottom` an exhausted stack means "no context" (adds epsilon), else it
// is the empty context $ (adds <EOF>).
class Look {
 public:
  Look(const Atn& atn, bool null_bottom)
      : atn_(atn), null_bottom_(null_bottom) {}

  void Run(int state, const std::vector<int>& stack, TokenSet* out) {
    if (!busy_.insert({state, stack}).second) return;
    const AtnState& s = atn_.state(state);
    if (s.type == AtnStateType::kRuleStop) {
      if (stack.empty()) {
        out->Add(null_bottom_ ? TokenSet::kEpsilon : kTokEof);
        return;
      }
      const bool removed = called_.test(s.rule);
      called_.reset(s.rule);
      std::vector<int> rest(stack.begin() + 1, stack.end());
      Run(stack.front(), rest, out);
      if (removed) called_.set(s.rule);
      return;
    }
    for (const AtnTransition& t : s.transitions) {
      switch (t.kind) {
        case AtnTransition::kRule: {
          const int rule = atn_.state(t.target).rule;
          if (called_.test(rule)) continue;
          std::vector<int> pushed;
          pushed.reserve(stack.size() + 1);
          pushed.push_back(t.follow);
          pushed.insert(pushed.end(), stack.begin(), stack.end());
          called_.set(rule);
          Run(t.target, pushed, out);
          called_.reset(rule);
          break;
        }
        case AtnTransition::kEpsilon:
          Run(t.target, stack, out);
          break;
        case AtnTransition::kAtom:
          out->Add(t.label);
          break;
      }
    }
  }

 private:
  const Atn& atn_;
  bool null_bottom_;
  std::set<std::pair<int, std::vector<int>>> busy_;
  std::bitset<kRuleCount> called_;
};

}  // namespace

const TokenSet& Atn::NextTokens(int state) const {
  LazyTokens& lazy = next_tokens_[state];
  std::call_once(lazy.once, [&] {
    Look look(*this, /*null_bottom=*/true);
    look.Run(state, {}, &lazy.tokens);
  });
  return lazy.tokens;
}

TokenSet Atn::NextTokensInContext(int state,
                                  const std::vector<int>& follow_stack) const {
  // Rule stop states carry follow links, which LOOK never uses: with a
  // context it pops instead, and at the bottom it adds <EOF> and stops.
  TokenSet out;
  Look look(*this, /*null_bottom=*/false);
  look.Run(state, follow_stack, &out);
  return out;
}

TokenSet Atn::ExpectedTokens(int state,
                             const std::vector<int>& invoking_states) const {
  TokenSet following = NextTokens(state);
  if (!following.Contains(TokenSet::kEpsilon)) return following;
  TokenSet expected = following;
  expected.Remove(TokenSet::kEpsilon);
  for (auto it = invoking_states.rbegin();
       it != invoking_states.rend() && following.Contains(TokenSet::kEpsilon);
       ++it) {
    following = NextTokens(FollowOf(*it));
    expected.AddAll(following);
    expected.Remove(TokenSet::kEpsilon);
  }
  if (following.Contains(TokenSet::kEpsilon)) expected.Add(kTokEof);
  return expected;
}

const Atn& SlAtn() {
  static const Atn* const atn = [] {
    auto* built = new Atn();
    AtnBuilder(built).Build();
    return built;
  }();
  return *atn;
}

}  // namespace morel::sl
