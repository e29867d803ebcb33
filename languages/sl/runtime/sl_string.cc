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

}  // namespace

SLString* SLString::AllocateRope() {
  return static_cast<SLString*>(heap::AllocateTraced(sizeof(SLString) + sizeof(Children)));
}

// A flat string is one pointer-free block: the header, then the characters
// (chars_ points into the same block), so one
// allocation instead of two, and the collector never scans it.
SLString* SLString::NewFlat(absl::string_view first, absl::string_view second) {
  size_t length = first.size() + second.size();
  auto* string = static_cast<SLString*>(
      heap::AllocateAtomic(sizeof(SLString) + length + 1));
  char* chars = reinterpret_cast<char*>(string + 1);
  if (!first.empty()) std::memcpy(chars, first.data(), first.size());
  if (!second.empty()) std::memcpy(chars + first.size(), second.data(), second.size());
  chars[length] = '\0';
  string->length_ = length;
  string->chars_ = chars;
  return string;
}

SLString* NewString(absl::string_view text) { return SLString::NewFlat(text); }

Value StringValue(absl::string_view text) {
  return Value::Reference(kStringTag, NewString(text));
}

Value ConcatStrings(SLString* a, SLString* b) {
  if (a->length_ == 0) return Value::Reference(kStringTag, b);
  if (b->length_ == 0) return Value::Reference(kStringTag, a);
  size_t length = a->length_ + b->length_;
  if (length < kMinRopeLength) {
    return Value::Reference(kStringTag, SLString::NewFlat(a->view(), b->view()));
  }
  SLString* string = SLString::AllocateRope();
  string->length_ = length;
  string->chars_ = nullptr;
  string->children() = {a, b};
  return Value::Reference(kStringTag, string);
}

Value ConcatStringAndText(SLString* a, absl::string_view b, bool b_first) {
  size_t length = a->length_ + b.size();
  if (length >= kMinRopeLength) {
    SLString* text = NewString(b);
    return b_first ? ConcatStrings(text, a) : ConcatStrings(a, text);
  }
  SLString* string =
      b_first ? SLString::NewFlat(b, a->view()) : SLString::NewFlat(a->view(), b);
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
      pending.push_back(piece->children().left);
      pending.push_back(piece->children().right);
    }
  }
  std::atomic_ref<const char*>(chars_).store(chars, std::memory_order_release);
  children() = {nullptr, nullptr};
}

}  // namespace morel::sl
