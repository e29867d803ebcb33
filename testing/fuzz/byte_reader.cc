#include "testing/fuzz/byte_reader.h"

#include <algorithm>

namespace morel::fuzz {

int64_t ByteReader::Int(int64_t lo, int64_t hi) {
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (range == 0) return lo;
  uint64_t value = 0;
  // Little-endian, one byte per 8 bits of the range.
  for (int shift = 0; shift < 64 && (range >> shift) != 0 && pos_ < size_; shift += 8) {
    value |= static_cast<uint64_t>(data_[pos_++]) << shift;
  }
  if (range != UINT64_MAX) value %= range + 1;
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + value);
}

uint64_t ByteReader::Word() {
  uint64_t value = 0;
  for (int shift = 0; shift < 64 && pos_ < size_; shift += 8) {
    value |= static_cast<uint64_t>(data_[pos_++]) << shift;
  }
  return value;
}

std::string ByteReader::Bytes(size_t max) {
  size_t n = std::min<size_t>(static_cast<size_t>(Int(0, 255)), max);
  n = std::min(n, remaining());
  std::string out(reinterpret_cast<const char*>(data_ + pos_), n);
  pos_ += n;
  return out;
}

absl::string_view ByteReader::Rest() {
  absl::string_view rest(reinterpret_cast<const char*>(data_ + pos_), size_ - pos_);
  pos_ = size_;
  return rest;
}

}  // namespace morel::fuzz
