#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_STRING_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_STRING_H_

// SLString: an immutable string in the collected heap. SL never indexes
// strings, so UTF-8 bytes pass through unchanged (sl_spec §11).
//
// Concatenation is lazy (a rope, as Truffle's lazy string concatenation):
// `a + b` of long strings makes a node pointing at both, in O(1), and the
// characters are laid out once, when something reads them (printing,
// comparison, property keys). Building a string piece by piece in a loop is
// therefore linear instead of quadratic. A flattened rope keeps its flat
// copy and drops its children.

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "languages/sl/runtime/values.h"
#include "nodes/value.h"

namespace morel::sl {

class SLString {
 public:
  size_t length() const { return length_; }
  // The characters; flattens a rope first (not thread-safe against a
  // concurrent flatten of the same rope; guest code runs on one thread).
  absl::string_view view() {
    if (chars_ == nullptr) Flatten();
    return absl::string_view(chars_, length_);
  }
  // The characters if the string is flat, else nullopt; never flattens, so
  // a compiler thread may call it while guest code runs (Flatten publishes
  // the characters before the string reads as flat).
  std::optional<absl::string_view> FlatView() {
    const char* chars = std::atomic_ref<const char*>(chars_).load(std::memory_order_acquire);
    if (chars == nullptr) return std::nullopt;
    return absl::string_view(chars, length_);
  }

 private:
  friend SLString* NewString(absl::string_view text);
  friend Value ConcatStrings(SLString* a, SLString* b);
  friend Value ConcatStringAndText(SLString* a, absl::string_view b, bool b_first);
  void Flatten();
  // A flat string (one block) holding `first` followed by `second`.
  static SLString* NewFlat(absl::string_view first, absl::string_view second = {});
  // An uninitialized rope node (header and children).
  static SLString* AllocateRope();

  // A rope's children, in the two words after the header (a rope node is
  // one traced block); null once the rope is flattened. A flat string has
  // its characters there instead (one pointer-free block): 16 bytes of
  // header, so a short string fits a 32-byte granule.
  struct Children {
    SLString* left;
    SLString* right;
  };
  Children& children() { return *reinterpret_cast<Children*>(this + 1); }

  size_t length_;
  const char* chars_;  // null while a rope
};

// A new flat string holding `text`.
SLString* NewString(absl::string_view text);
Value StringValue(absl::string_view text);
// `a` followed by `b`.
Value ConcatStrings(SLString* a, SLString* b);
// `a` followed by the characters `b` (e.g. a number's text, formatted on the
// caller's stack): one flat string when short, without an intermediate
// string for `b`; `b_first` puts `b` in front.
Value ConcatStringAndText(SLString* a, absl::string_view b, bool b_first);

inline SLString* AsString(const Value& v) { return v.As<SLString>(); }
inline absl::string_view StringView(const Value& v) { return AsString(v)->view(); }

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_STRING_H_
