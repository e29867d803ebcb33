#include "languages/sl/runtime/sl_string.h"

#include <cstring>
#include <vector>

#include "nodes/heap.h"

namespace morel::sl {
namespace {

// Below this many characters a concatenation copies: a rope node costs as
// much as copying a short string, and flat strings read faster.
constexpr size_t kMinRopeLength = 64;

char* AllocateChars(size_t length) {
  auto* chars = static_cast<char*>(heap::AllocateAtomic(length + 1));
  chars[length] = '\0';
  return chars;
}

SLString* AllocateHeader() {
  return static_cast<SLString*>(heap::AllocateTraced(sizeof(SLString)));
}

}  // namespace

SLString* NewString(absl::string_view text) {
  char* chars = AllocateChars(text.size());
  if (!text.empty()) std::memcpy(chars, text.data(), text.size());
  SLString* string = AllocateHeader();
  string->length_ = text.size();
  string->chars_ = chars;
  string->left_ = nullptr;
  string->right_ = nullptr;
  return string;
}

Value StringValue(absl::string_view text) {
  return Value::Reference(kStringTag, NewString(text));
}

Value ConcatStrings(SLString* a, SLString* b) {
  if (a->length_ == 0) return Value::Reference(kStringTag, b);
  if (b->length_ == 0) return Value::Reference(kStringTag, a);
  size_t length = a->length_ + b->length_;
  SLString* string = AllocateHeader();
  string->length_ = length;
  if (length < kMinRopeLength) {
    char* chars = AllocateChars(length);
    absl::string_view left = a->view();
    absl::string_view right = b->view();
    std::memcpy(chars, left.data(), left.size());
    std::memcpy(chars + left.size(), right.data(), right.size());
    string->chars_ = chars;
    string->left_ = nullptr;
    string->right_ = nullptr;
  } else {
    string->chars_ = nullptr;
    string->left_ = a;
    string->right_ = b;
  }
  return Value::Reference(kStringTag, string);
}

Value ConcatStringAndText(SLString* a, absl::string_view b, bool b_first) {
  size_t length = a->length_ + b.size();
  if (length >= kMinRopeLength) {
    SLString* text = NewString(b);
    return b_first ? ConcatStrings(text, a) : ConcatStrings(a, text);
  }
  absl::string_view first = b_first ? b : a->view();
  absl::string_view second = b_first ? a->view() : b;
  char* chars = AllocateChars(length);
  if (!first.empty()) std::memcpy(chars, first.data(), first.size());
  if (!second.empty()) std::memcpy(chars + first.size(), second.data(), second.size());
  SLString* string = AllocateHeader();
  string->length_ = length;
  string->chars_ = chars;
  string->left_ = nullptr;
  string->right_ = nullptr;
  return Value::Reference(kStringTag, string);
}

void SLString::Flatten() {
  char* chars = AllocateChars(length_);
  // Right to left with an explicit stack: ropes built in a loop are deep.
  size_t position = length_;
  std::vector<SLString*> pending = {this};
  while (!pending.empty()) {
    SLString* piece = pending.back();
    pending.pop_back();
    if (piece->chars_ != nullptr) {
      position -= piece->length_;
      std::memcpy(chars + position, piece->chars_, piece->length_);
    } else {
      pending.push_back(piece->left_);
      pending.push_back(piece->right_);
    }
  }
  chars_ = chars;
  left_ = nullptr;
  right_ = nullptr;
}

}  // namespace morel::sl
