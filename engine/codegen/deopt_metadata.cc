#include "engine/codegen/deopt_metadata.h"

#include <cstring>

#include "absl/status/status.h"

namespace morel::codegen {
namespace {

void PutVarint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v) | 0x80);
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t UnZigZag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

class Reader {
 public:
  explicit Reader(absl::Span<const uint8_t> b) : b_(b) {}
  bool done() const { return pos_ >= b_.size(); }
  absl::StatusOr<uint64_t> Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= b_.size()) return absl::DataLossError("truncated deopt metadata");
      uint8_t byte = b_[pos_++];
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return v;
    }
    return absl::DataLossError("overlong varint in deopt metadata");
  }
  absl::StatusOr<uint8_t> Byte() {
    if (pos_ >= b_.size()) return absl::DataLossError("truncated deopt metadata");
    return b_[pos_++];
  }

 private:
  absl::Span<const uint8_t> b_;
  size_t pos_ = 0;
};

}  // namespace

const DeoptPoint* CodeMetadata::FindDeopt(uint32_t id) const {
  for (const DeoptPoint& p : deopt_points) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

// Per point: varint id, pc_offset, exit_offset, count; per value one byte
// (kind in the low 2 bits; for registers the register number above them)
// and, for frame slots and constants, a zigzag varint.
std::vector<uint8_t> EncodeDeoptPoints(absl::Span<const DeoptPoint> points) {
  std::vector<uint8_t> out;
  for (const DeoptPoint& p : points) {
    PutVarint(out, p.id);
    PutVarint(out, p.pc_offset);
    PutVarint(out, p.exit_offset);
    PutVarint(out, p.values.size());
    for (const ValueLocation& v : p.values) {
      if (v.kind == ValueLocation::Kind::kRegister) {
        out.push_back(static_cast<uint8_t>(v.value << 2));
      } else {
        out.push_back(static_cast<uint8_t>(v.kind));
        PutVarint(out, ZigZag(v.value));
      }
    }
  }
  return out;
}

absl::StatusOr<std::vector<DeoptPoint>> DecodeDeoptPoints(absl::Span<const uint8_t> bytes) {
  std::vector<DeoptPoint> points;
  Reader r(bytes);
  while (!r.done()) {
    DeoptPoint p;
    uint64_t fields[4];
    for (uint64_t& f : fields) {
      absl::StatusOr<uint64_t> v = r.Varint();
      if (!v.ok()) return v.status();
      f = *v;
    }
    p.id = static_cast<uint32_t>(fields[0]);
    p.pc_offset = static_cast<uint32_t>(fields[1]);
    p.exit_offset = static_cast<uint32_t>(fields[2]);
    if (fields[3] > bytes.size()) return absl::DataLossError("bad value count");
    for (uint64_t i = 0; i < fields[3]; ++i) {
      absl::StatusOr<uint8_t> tag = r.Byte();
      if (!tag.ok()) return tag.status();
      ValueLocation loc;
      loc.kind = static_cast<ValueLocation::Kind>(*tag & 3);
      if (loc.kind == ValueLocation::Kind::kRegister) {
        loc.value = *tag >> 2;
      } else if (loc.kind == ValueLocation::Kind::kFrameSlot ||
                 loc.kind == ValueLocation::Kind::kConstant) {
        absl::StatusOr<uint64_t> v = r.Varint();
        if (!v.ok()) return v.status();
        loc.value = UnZigZag(*v);
      } else {
        return absl::DataLossError("bad location kind");
      }
      p.values.push_back(loc);
    }
    points.push_back(std::move(p));
  }
  return points;
}

uint64_t ReadDeoptValue(const ValueLocation& loc, const uint64_t* saved_regs,
                        const uint8_t* frame_pointer) {
  switch (loc.kind) {
    case ValueLocation::Kind::kRegister:
      return saved_regs[loc.value];
    case ValueLocation::Kind::kFrameSlot: {
      uint64_t v;
      std::memcpy(&v, frame_pointer + loc.value, sizeof v);
      return v;
    }
    case ValueLocation::Kind::kConstant:
      return static_cast<uint64_t>(loc.value);
  }
  return 0;
}

}  // namespace morel::codegen
