#include "languages/sl/parser/recognizer.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "languages/sl/parser/prediction.h"

namespace morel::sl {

std::string QuoteForError(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  out += "'";
  return out;
}

void Recognizer::EnterRule() {
  frames_.push_back(Frame{state_, top_});
  top_ = static_cast<int>(frames_.size()) - 1;
  ++depth_;
  if (depth_ <= kMaxRuleDepth || failed()) return;
  const Token& t = LT(1);
  if (failed()) return;
  nesting_too_deep_ = true;
  Report(t, NestingTooDeepMessage());
}

void Recognizer::ExitRule() {
  state_ = frames_[top_].invoking_state;
  top_ = frames_[top_].parent;
  --depth_;
  TrimFrames();
}

void Recognizer::TrimFrames() {
  int live = top_;
  if (next_tokens_context_.has_value()) {
    live = std::max(live, next_tokens_context_->top);
  }
  // Frames are pushed after their parents, so none above `live` is on the
  // current stack or the saved one.
  frames_.resize(live + 1);
}

std::vector<int> Recognizer::InvokingStates(int top) const {
  std::vector<int> states;
  for (int f = top; f >= 0; f = frames_[f].parent) {
    states.push_back(frames_[f].invoking_state);
  }
  std::reverse(states.begin(), states.end());
  return states;
}

std::vector<int> Recognizer::FollowStack() const {
  std::vector<int> stack;
  for (int f = top_; f >= 0; f = frames_[f].parent) {
    stack.push_back(atn_.FollowOf(frames_[f].invoking_state));
  }
  return stack;
}

void Recognizer::EndGroup() {
  if (mode_ == PredictionMode::kSll && closed_ != nullptr && !failed()) {
    closed_->Add(groups_.back());
  }
  groups_.pop_back();
}

const Token* Recognizer::Match(int type) {
  if (failed()) return nullptr;
  const Token& current = LT(1);
  if (failed()) return nullptr;
  if (current.type == type) {
    input_.Consume();
    return failed() ? nullptr : &current;
  }
  // DefaultErrorStrategy.recoverInline.
  if (SingleTokenDeletion() || failed()) return nullptr;
  if (SingleTokenInsertion() || failed()) return nullptr;
  if (next_tokens_context_.has_value()) {
    ReportInputMismatch(atn_.ExpectedTokens(
        next_tokens_context_->state,
        InvokingStates(next_tokens_context_->top)));
  } else {
    ReportInputMismatch(ExpectedTokens());
  }
  return nullptr;
}

bool Recognizer::Sync() {
  if (failed()) return false;
  const int la = LA(1);
  if (failed()) return false;
  const TokenSet& next = atn_.NextTokens(state_);
  if (next.Contains(la)) {
    if (next_tokens_context_.has_value()) {
      next_tokens_context_.reset();
      TrimFrames();
    }
    return true;
  }
  if (next.Contains(TokenSet::kEpsilon)) {
    if (!next_tokens_context_.has_value()) {
      next_tokens_context_ = SavedContext{state_, top_};
    }
    return true;
  }
  switch (atn_.state(state_).type) {
    case AtnStateType::kBlockStart:
    case AtnStateType::kStarBlockStart:
    case AtnStateType::kStarLoopEntry:
      if (!SingleTokenDeletion() && !failed()) {
        ReportInputMismatch(ExpectedTokens());
      }
      return false;
    case AtnStateType::kStarLoopBack:
      ReportUnwantedToken();
      return false;
    default:
      return true;
  }
}

int Recognizer::Predict(int decision_state) {
  if (failed()) return 0;
  NoViableAlt error;
  const FollowStackFn follow_stack = [this] { return FollowStack(); };
  int alt;
  if (mode_ == PredictionMode::kLl && closed_ != nullptr && !diverged_) {
    // After a kSll parse that failed: inside a group that parse closed,
    // kLl's prediction is kSll's (README.md, "Parsing strategy"); elsewhere
    // run both, and stop relying on the kSll parse once they disagree.
    alt = AdaptivePredict(atn_, decision_state, PredictionMode::kSll,
                          follow_stack, input_, &prediction_cache_, &error);
    if (failed()) return 0;
    if (groups_.empty() || !closed_->Contains(groups_.back())) {
      const int sll_alt = alt;
      alt = AdaptivePredict(atn_, decision_state, PredictionMode::kLl,
                            follow_stack, input_, &prediction_cache_, &error);
      diverged_ = alt != sll_alt;
    }
  } else {
    alt = AdaptivePredict(atn_, decision_state, mode_, follow_stack, input_,
                          &prediction_cache_, &error);
  }
  if (failed()) return 0;
  if (alt == 0 && error.budget_exhausted) {
    budget_exhausted_ = true;
    Report(LT(1), "full-context prediction budget exhausted");
    return 0;
  }
  if (alt == 0) ReportNoViableAlt(error.start_index, error.offending_index);
  return alt;
}

void Recognizer::ReportNoViableAltHere() {
  if (failed()) return;
  ReportNoViableAlt(input_.index(), input_.index());
}

bool Recognizer::SingleTokenDeletion() {
  const int next_type = LA(2);
  if (failed()) return false;
  if (!ExpectedTokens().Contains(next_type)) return false;
  ReportUnwantedToken();
  return true;
}

bool Recognizer::SingleTokenInsertion() {
  const int current_type = LA(1);
  const int next = atn_.state(state_).transitions[0].target;
  if (!atn_.NextTokensInContext(next, FollowStack()).Contains(current_type)) {
    return false;
  }
  ReportMissingToken();
  return true;
}

void Recognizer::ReportUnwantedToken() {
  const Token& t = LT(1);
  Report(t, absl::StrCat("extraneous input ", QuoteForError(t.text),
                         " expecting ", ExpectedTokens().ToString()));
}

void Recognizer::ReportMissingToken() {
  const Token& t = LT(1);
  Report(t, absl::StrCat("missing ", ExpectedTokens().ToString(), " at ",
                         QuoteForError(t.text)));
}

void Recognizer::ReportInputMismatch(const TokenSet& expected) {
  const Token& t = LT(1);
  Report(t, absl::StrCat("mismatched input ", QuoteForError(t.text),
                         " expecting ", expected.ToString()));
}

void Recognizer::ReportNoViableAlt(int start_index, int offending_index) {
  std::string text;
  if (input_.Get(start_index).type == kTokEof) {
    text = "<EOF>";
  } else {
    for (int i = start_index; i <= offending_index; ++i) {
      const Token& t = input_.Get(i);
      if (t.type == kTokEof) break;
      text += t.text;
    }
  }
  Report(input_.Get(offending_index),
         absl::StrCat("no viable alternative at input ", QuoteForError(text)));
}

void Recognizer::Report(const Token& offending, std::string message) {
  input_.Fail(SyntaxError{offending.line, offending.column, std::move(message)});
}

}  // namespace morel::sl
