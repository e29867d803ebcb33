#ifndef MOREL_TESTING_FUZZ_BYTE_READER_H_
#define MOREL_TESTING_FUZZ_BYTE_READER_H_

// Choices drawn from a fuzz input, front to back, so that a mutation of a
// byte changes one decision and leaves the others alone. Once the bytes are
// used up every choice is the smallest one (Int gives `lo`, Bool false,
// Bytes and Text empty): a short input describes a small structure.

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace morel::fuzz {

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  // A value in [lo, hi] (lo <= hi), from as few bytes as the range needs.
  int64_t Int(int64_t lo, int64_t hi);
  // An index in [0, n) for n > 0.
  size_t Index(size_t n) { return static_cast<size_t>(Int(0, static_cast<int64_t>(n) - 1)); }
  bool Bool() { return Int(0, 1) == 1; }
  // Eight bytes as they are (zero-padded at the end of the input).
  uint64_t Word();
  // Up to `max` bytes: a length byte, then that many bytes (fewer at the end).
  std::string Bytes(size_t max);
  // Everything not read yet.
  absl::string_view Rest();

  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return size_ - pos_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace morel::fuzz

#endif  // MOREL_TESTING_FUZZ_BYTE_READER_H_
