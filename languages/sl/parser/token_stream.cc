#include "languages/sl/parser/token_stream.h"

#include <algorithm>
#include <utility>

namespace morel::sl {

TokenStream::TokenStream(LexResult lexed)
    : tokens_(std::move(lexed.tokens)), lex_error_(std::move(lexed.error)) {
  eof_.type = kTokEof;
  eof_.text = "<EOF>";
  Fetch(0);  // ANTLR fetches the first token when the parser is created
}

bool TokenStream::Fetch(int index) {
  if (lex_error_.has_value() && index >= lex_error_->token_index) {
    Fail(SyntaxError{lex_error_->line, lex_error_->column,
                     lex_error_->message});
    return false;
  }
  return true;
}

const Token& TokenStream::LT(int k) {
  int i = p_ + k - 1;
  if (!lex_error_.has_value()) {
    i = std::min(i, static_cast<int>(tokens_.size()) - 1);
  }
  if (!Fetch(i)) return eof_;
  return tokens_[i];
}

const Token* TokenStream::Previous() const {
  return p_ > 0 ? &tokens_[p_ - 1] : nullptr;
}

const Token& TokenStream::Get(int index) const {
  if (index < static_cast<int>(tokens_.size())) return tokens_[index];
  return eof_;
}

void TokenStream::Consume() {
  if (failed()) return;
  if (!lex_error_.has_value() && tokens_[p_].type == kTokEof) return;
  ++p_;
  Fetch(p_);
}

void TokenStream::Fail(SyntaxError error) {
  if (!error_.has_value()) error_ = std::move(error);
}

}  // namespace morel::sl
