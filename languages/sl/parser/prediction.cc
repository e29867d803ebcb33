#include "languages/sl/parser/prediction.h"

#include <algorithm>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace morel::sl {
namespace {

// A prediction context: return states, innermost first, as a node of a
// StackPool (kEmptyStack = no return state). In SLL mode an exhausted stack
// is ANTLR's wildcard "$" (any caller); in full-context mode it is the bottom
// of the real invocation stack.
using Stack = int;
constexpr Stack kEmptyStack = 0;

// Hash-consed persistent stacks: a stack is (innermost return state, rest),
// equal stacks are the same node, so pushing, popping, copying and comparing
// take constant time whatever the nesting depth (ANTLR shares parents the
// same way in its PredictionContext graph).
class StackPool {
 public:
  StackPool() : nodes_(1, Node{-1, kEmptyStack}) {}

  Stack Push(int return_state, Stack rest) {
    auto [it, inserted] = index_.try_emplace(
        std::make_pair(return_state, rest), static_cast<int>(nodes_.size()));
    if (inserted) nodes_.push_back(Node{return_state, rest});
    return it->second;
  }
  int Top(Stack s) const { return nodes_[s].return_state; }
  Stack Rest(Stack s) const { return nodes_[s].rest; }

  // Whether `prefix` lists the innermost return states of `stack`.
  bool IsPrefix(Stack prefix, Stack stack) const {
    while (prefix != kEmptyStack) {
      if (prefix == stack) return true;
      if (stack == kEmptyStack || Top(prefix) != Top(stack)) return false;
      prefix = Rest(prefix);
      stack = Rest(stack);
    }
    return true;
  }

  // The stack of `return_states` (innermost first).
  Stack FromVector(const std::vector<int>& return_states) {
    Stack s = kEmptyStack;
    for (auto it = return_states.rbegin(); it != return_states.rend(); ++it) {
      s = Push(*it, s);
    }
    return s;
  }

 private:
  struct Node {
    int return_state;
    Stack rest;
  };
  std::vector<Node> nodes_;
  absl::flat_hash_map<std::pair<int, Stack>, Stack> index_;
};

struct Config {
  int state;
  int alt;
  Stack stack;
  int outer_depth;  // ANTLR's reachesIntoOuterContext
};

// ANTLR's ATNConfigSet: configurations keyed by (state, alt) whose contexts
// are merged. A merged context is kept as the set of stacks it denotes; in
// SLL mode a stack absorbs its extensions (PredictionContext.merge with
// rootIsWildcard).
class ConfigSet {
 public:
  struct Entry {
    int state;
    int alt;
    std::set<Stack> stacks;
    int outer_depth;
  };

  ConfigSet(bool full_ctx, const StackPool* pool)
      : full_ctx_(full_ctx), pool_(pool) {}

  void Add(const Config& c) {
    auto [it, inserted] =
        index_.try_emplace(std::make_pair(c.state, c.alt), entries_.size());
    if (inserted) entries_.push_back(Entry{c.state, c.alt, {}, 0});
    Entry& e = entries_[it->second];
    e.outer_depth = std::max(e.outer_depth, c.outer_depth);
    if (full_ctx_) {
      e.stacks.insert(c.stack);
      return;
    }
    for (const Stack s : e.stacks) {
      if (pool_->IsPrefix(s, c.stack)) return;
    }
    for (auto s = e.stacks.begin(); s != e.stacks.end();) {
      s = pool_->IsPrefix(c.stack, *s) ? e.stacks.erase(s) : std::next(s);
    }
    e.stacks.insert(c.stack);
  }

  bool full_ctx() const { return full_ctx_; }
  const StackPool* pool() const { return pool_; }
  bool empty() const { return entries_.empty(); }
  int size() const { return static_cast<int>(entries_.size()); }
  const std::vector<Entry>& entries() const { return entries_; }

  // The single alternative of all configurations, or 0.
  int UniqueAlt() const {
    int alt = 0;
    for (const Entry& e : entries_) {
      if (alt == 0) {
        alt = e.alt;
      } else if (e.alt != alt) {
        return 0;
      }
    }
    return alt;
  }

 private:
  bool full_ctx_;
  const StackPool* pool_;
  std::vector<Entry> entries_;
  std::map<std::pair<int, int>, size_t> index_;
};

using Busy = std::set<std::tuple<int, int, Stack>>;

// A state of the SLL DFA of one decision.
struct DfaState {
  enum Kind { kContinue, kPredicted, kConflict };
  std::shared_ptr<const ConfigSet> configs;
  Kind kind = kContinue;
  int alt = 0;                // kPredicted
  std::map<int, int> edges;   // token type -> state index, -1 = no target
};

}  // namespace

struct PredictionCache::Impl {
  std::map<int, std::vector<DfaState>> dfas;  // by decision state
  StackPool stacks;  // the stacks of the DFA states and of full-context runs
  int64_t full_context_budget = INT64_MAX;  // closure steps left
};

PredictionCache::PredictionCache() : impl_(std::make_unique<Impl>()) {}

void PredictionCache::SetFullContextBudget(int64_t steps) {
  impl_->full_context_budget = steps;
}
PredictionCache::~PredictionCache() = default;

namespace {
using AltSet = std::bitset<8>;

class Simulator {
 public:
  Simulator(const Atn& atn, TokenStream& input, PredictionCache::Impl& cache,
            PredictionMode mode, const FollowStackFn& follow_stack)
      : atn_(atn),
        input_(input),
        cache_(cache),
        pool_(cache.stacks),
        mode_(mode),
        follow_stack_(follow_stack) {}

  int Predict(int decision, NoViableAlt* error) {
    const int start = input_.index();
    const int alt = ExecSll(decision, start, error);
    input_.Seek(start);
    return input_.failed() ? 0 : alt;
  }

 private:
  bool IsStop(int state) const {
    return atn_.state(state).type == AtnStateType::kRuleStop;
  }

  ConfigSet StartState(int decision, Stack initial, bool full_ctx) {
    ConfigSet configs(full_ctx, &pool_);
    const AtnState& p = atn_.state(decision);
    for (size_t i = 0; i < p.transitions.size(); ++i) {
      Busy busy;
      Closure(Config{p.transitions[i].target, static_cast<int>(i) + 1, initial,
                     0},
              &configs, &busy, full_ctx, /*eof_as_epsilon=*/false);
    }
    return configs;
  }

  // ParserATNSimulator.closureCheckingStopState.
  void Closure(const Config& c, ConfigSet* out, Busy* busy, bool full_ctx,
               bool eof_as_epsilon) {
    if (full_ctx && --cache_.full_context_budget < 0) return;
    if (IsStop(c.state)) {
      if (c.stack != kEmptyStack) {
        Config popped{pool_.Top(c.stack), c.alt, pool_.Rest(c.stack),
                      c.outer_depth};
        Closure(popped, out, busy, full_ctx, eof_as_epsilon);
        return;
      }
      if (full_ctx) {  // reached the end of the start rule
        out->Add(c);
        return;
      }
      // SLL without context: follow the links to every caller.
    }
    ClosureStep(c, out, busy, full_ctx, eof_as_epsilon);
  }

  // ParserATNSimulator.closure_.
  void ClosureStep(const Config& c, ConfigSet* out, Busy* busy, bool full_ctx,
                   bool eof_as_epsilon) {
    const AtnState& p = atn_.state(c.state);
    if (!p.epsilon_only) out->Add(c);
    for (const AtnTransition& t : p.transitions) {
      std::optional<Config> next;
      switch (t.kind) {
        case AtnTransition::kRule:
          next = Config{t.target, c.alt, pool_.Push(t.follow, c.stack),
                        c.outer_depth};
          break;
        case AtnTransition::kEpsilon:
          next = Config{t.target, c.alt, c.stack, c.outer_depth};
          break;
        case AtnTransition::kAtom:
          if (eof_as_epsilon && t.label == kTokEof) {
            next = Config{t.target, c.alt, c.stack, c.outer_depth};
          }
          break;
      }
      if (!next.has_value()) continue;
      if (p.type == AtnStateType::kRuleStop) {
        // Fell off the end of a rule into the global follow.
        ++next->outer_depth;
        if (!busy->insert({next->state, next->alt, next->stack}).second) {
          continue;
        }
      } else if (!t.IsEpsilon() &&
                 !busy->insert({next->state, next->alt, next->stack}).second) {
        continue;
      }
      Closure(*next, out, busy, full_ctx, eof_as_epsilon);
    }
  }

  static bool AllInRuleStopStates(const ConfigSet& configs,
                                  const Atn& atn) {
    for (const auto& e : configs.entries()) {
      if (atn.state(e.state).type != AtnStateType::kRuleStop) return false;
    }
    return true;
  }

  ConfigSet RemoveAllNotInRuleStopState(const ConfigSet& configs,
                                        bool look_to_end_of_rule) {
    if (AllInRuleStopStates(configs, atn_)) return configs;
    ConfigSet result(configs.full_ctx(), &pool_);
    for (const auto& e : configs.entries()) {
      for (const Stack s : e.stacks) {
        if (IsStop(e.state)) {
          result.Add(Config{e.state, e.alt, s, e.outer_depth});
          continue;
        }
        const AtnState& state = atn_.state(e.state);
        if (look_to_end_of_rule && state.epsilon_only &&
            atn_.NextTokens(e.state).Contains(TokenSet::kEpsilon)) {
          result.Add(
              Config{atn_.rule_stop(state.rule), e.alt, s, e.outer_depth});
        }
      }
    }
    return result;
  }

  // ParserATNSimulator.computeReachSet.
  std::optional<ConfigSet> ComputeReach(const ConfigSet& closure, int t,
                                        bool full_ctx) {
    ConfigSet intermediate(full_ctx, &pool_);
    std::vector<Config> skipped_stop_states;
    for (const auto& e : closure.entries()) {
      for (const Stack s : e.stacks) {
        if (IsStop(e.state)) {
          if (full_ctx || t == kTokEof) {
            skipped_stop_states.push_back(Config{e.state, e.alt, s,
                                                 e.outer_depth});
          }
          continue;
        }
        for (const AtnTransition& tr : atn_.state(e.state).transitions) {
          if (tr.kind == AtnTransition::kAtom && tr.label == t) {
            intermediate.Add(Config{tr.target, e.alt, s, e.outer_depth});
          }
        }
      }
    }
    bool reach_is_intermediate = false;
    if (skipped_stop_states.empty() && t != kTokEof &&
        (intermediate.size() == 1 || intermediate.UniqueAlt() != 0)) {
      reach_is_intermediate = true;
    }
    ConfigSet reach(full_ctx, &pool_);
    if (reach_is_intermediate) {
      reach = intermediate;
    } else {
      Busy busy;
      for (const auto& e : intermediate.entries()) {
        for (const Stack s : e.stacks) {
          Closure(Config{e.state, e.alt, s, e.outer_depth}, &reach, &busy,
                  full_ctx, /*eof_as_epsilon=*/t == kTokEof);
        }
      }
    }
    if (t == kTokEof) {
      reach = RemoveAllNotInRuleStopState(reach, reach_is_intermediate);
    }
    if (!skipped_stop_states.empty()) {
      bool has_stop = false;
      for (const auto& e : reach.entries()) has_stop |= IsStop(e.state);
      if (!full_ctx || !has_stop) {
        for (const Config& c : skipped_stop_states) reach.Add(c);
      }
    }
    if (reach.empty()) return std::nullopt;
    return reach;
  }

  // PredictionMode.getConflictingAltSubsets: alternatives per (state,
  // context).
  static std::vector<AltSet> ConflictingAltSubsets(const ConfigSet& configs) {
    std::map<std::pair<int, std::set<Stack>>, AltSet> groups;
    for (const auto& e : configs.entries()) {
      groups[{e.state, e.stacks}].set(e.alt);
    }
    std::vector<AltSet> result;
    for (const auto& [key, alts] : groups) result.push_back(alts);
    return result;
  }

  bool HasSllConflictTerminatingPrediction(const ConfigSet& configs) const {
    if (AllInRuleStopStates(configs, atn_)) return true;
    bool has_conflict = false;
    for (const AltSet& alts : ConflictingAltSubsets(configs)) {
      has_conflict |= alts.count() > 1;
    }
    if (!has_conflict) return false;
    std::map<int, AltSet> by_state;
    for (const auto& e : configs.entries()) by_state[e.state].set(e.alt);
    for (const auto& [state, alts] : by_state) {
      if (alts.count() == 1) return false;  // a state with one alternative
    }
    return true;
  }

  static int MinAlt(const AltSet& alts) {
    for (int i = 1; i < static_cast<int>(alts.size()); ++i) {
      if (alts.test(i)) return i;
    }
    return 0;
  }

  // PredictionMode.resolvesToJustOneViableAlt.
  static int ResolvesToJustOneViableAlt(const std::vector<AltSet>& subsets) {
    AltSet viable;
    for (const AltSet& alts : subsets) {
      viable.set(MinAlt(alts));
      if (viable.count() > 1) return 0;
    }
    return MinAlt(viable);
  }

  // getAltThatFinishedDecisionEntryRule.
  int AltThatFinishedDecisionEntryRule(const ConfigSet& configs) const {
    AltSet alts;
    for (const auto& e : configs.entries()) {
      if (e.outer_depth > 0 ||
          (IsStop(e.state) && e.stacks.count(kEmptyStack) > 0)) {
        alts.set(e.alt);
      }
    }
    return MinAlt(alts);
  }

  int NoViable(const ConfigSet& previous, int start, NoViableAlt* error) {
    const int offending = input_.index();
    const int alt = AltThatFinishedDecisionEntryRule(previous);
    if (alt != 0) return alt;
    error->start_index = start;
    error->offending_index = offending;
    return 0;
  }

  int ExecSll(int decision, int start, NoViableAlt* error) {
    std::vector<DfaState>& dfa = cache_.dfas[decision];
    if (dfa.empty()) {
      DfaState s0;
      s0.configs = std::make_shared<const ConfigSet>(
          StartState(decision, kEmptyStack, /*full_ctx=*/false));
      dfa.push_back(std::move(s0));
    }
    int d = 0;
    int t = input_.LA(1);
    int eof_steps = 0;
    while (!input_.failed()) {
      int target;
      if (auto edge = dfa[d].edges.find(t); edge != dfa[d].edges.end()) {
        target = edge->second;
      } else {
        target = -1;
        std::optional<ConfigSet> reach = ComputeReach(*dfa[d].configs, t, false);
        if (reach.has_value()) {
          DfaState next;
          if (const int alt = reach->UniqueAlt(); alt != 0) {
            next.kind = DfaState::kPredicted;
            next.alt = alt;
          } else if (HasSllConflictTerminatingPrediction(*reach)) {
            next.kind = DfaState::kConflict;
          }
          next.configs = std::make_shared<const ConfigSet>(std::move(*reach));
          target = static_cast<int>(dfa.size());
          dfa.push_back(std::move(next));
        }
        dfa[d].edges[t] = target;
      }
      if (target < 0) return NoViable(*dfa[d].configs, start, error);
      if (dfa[target].kind == DfaState::kPredicted) return dfa[target].alt;
      if (dfa[target].kind == DfaState::kConflict) {
        // PredictionMode.SLL resolves the conflict to its minimum
        // alternative; LL retries with the real invocation stack.
        if (mode_ == PredictionMode::kSll) return MinAltOf(*dfa[target].configs);
        input_.Seek(start);
        return ExecFullContext(decision, start, error);
      }
      d = target;
      // Safety net, not in ANTLR: at <EOF> the configurations end in rule
      // stop states within a step or two, which terminates above.
      if (t == kTokEof && ++eof_steps > 2) break;
      if (t != kTokEof) {
        input_.Consume();
        t = input_.LA(1);
      }
    }
    return input_.failed() ? 0 : MinAltOf(*dfa[d].configs);
  }

  int ExecFullContext(int decision, int start, NoViableAlt* error) {
    ConfigSet previous = StartState(
        decision, pool_.FromVector(follow_stack_()), /*full_ctx=*/true);
    int t = input_.LA(1);
    int eof_steps = 0;
    while (!input_.failed()) {
      std::optional<ConfigSet> reach = ComputeReach(previous, t, true);
      if (cache_.full_context_budget < 0) {
        error->budget_exhausted = true;
        return 0;
      }
      if (!reach.has_value()) return NoViable(previous, start, error);
      if (const int alt = reach->UniqueAlt(); alt != 0) return alt;
      if (const int alt =
              ResolvesToJustOneViableAlt(ConflictingAltSubsets(*reach));
          alt != 0) {
        return alt;
      }
      previous = std::move(*reach);
      if (t == kTokEof && ++eof_steps > 2) break;  // cannot progress further
      if (t != kTokEof) {
        input_.Consume();
        t = input_.LA(1);
      }
    }
    return input_.failed() ? 0 : MinAltOf(previous);
  }

  static int MinAltOf(const ConfigSet& configs) {
    AltSet alts;
    for (const auto& e : configs.entries()) alts.set(e.alt);
    return MinAlt(alts);
  }

  const Atn& atn_;
  TokenStream& input_;
  PredictionCache::Impl& cache_;
  StackPool& pool_;
  const PredictionMode mode_;
  const FollowStackFn& follow_stack_;
};

}  // namespace

int AdaptivePredict(const Atn& atn, int decision_state, PredictionMode mode,
                    const FollowStackFn& follow_stack, TokenStream& input,
                    PredictionCache* cache, NoViableAlt* error) {
  return Simulator(atn, input, cache->impl(), mode, follow_stack)
      .Predict(decision_state, error);
}

}  // namespace morel::sl
