#include "engine/codegen/code_buffer.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"

namespace morel::codegen {
namespace {

void Store32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
void Store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

bool FitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

}  // namespace

void CodeBuffer::Emit32(uint32_t v) {
  size_t at = bytes_.size();
  bytes_.resize(at + 4);
  Store32(bytes_.data() + at, v);
}

void CodeBuffer::Emit64(uint64_t v) {
  size_t at = bytes_.size();
  bytes_.resize(at + 8);
  Store64(bytes_.data() + at, v);
}

void CodeBuffer::Align(uint32_t alignment, uint8_t fill) {
  while (bytes_.size() % alignment != 0) bytes_.push_back(fill);
}

void CodeBuffer::Patch32(uint32_t offset, uint32_t v) { Store32(bytes_.data() + offset, v); }
void CodeBuffer::Patch64(uint32_t offset, uint64_t v) { Store64(bytes_.data() + offset, v); }

uint32_t CodeBuffer::Read32(uint32_t offset) const {
  uint32_t v;
  std::memcpy(&v, bytes_.data() + offset, 4);
  return v;
}

Label CodeBuffer::NewLabel() {
  label_offsets_.push_back(-1);
  return Label(static_cast<int>(label_offsets_.size() - 1));
}

void CodeBuffer::Bind(Label label) { label_offsets_[label.id()] = static_cast<int64_t>(size()); }

void CodeBuffer::AddLabelFixup(FixupKind kind, uint32_t offset, Label label, int64_t addend) {
  fixups_.push_back({kind, offset, label.id(), 0, addend});
}

void CodeBuffer::AddLabelFieldFixup(uint32_t offset, FixupField field, Label label) {
  fixups_.push_back({FixupKind::kPcRelField, offset, label.id(), 0, 0, field});
}

void CodeBuffer::AddExternalFieldFixup(uint32_t offset, FixupField field, uint64_t address) {
  fixups_.push_back({FixupKind::kPcRelField, offset, -1, address, 0, field});
}

absl::StatusOr<uint32_t> CodeBuffer::InsertField(uint32_t word, FixupField field,
                                                 int64_t displacement) {
  if (field.bits == 0 || field.bits > 32 || field.lsb + field.bits > 32 || field.shift > 16) {
    return absl::InvalidArgumentError("bad fixup field");
  }
  if ((displacement & ((int64_t{1} << field.shift) - 1)) != 0) {
    return absl::InvalidArgumentError(absl::StrCat("pc-relative displacement ", displacement,
                                                   " is not a multiple of ",
                                                   int64_t{1} << field.shift));
  }
  const int64_t value = displacement >> field.shift;
  const int64_t limit = int64_t{1} << (field.bits - 1);
  if (value < -limit || value >= limit) {
    return absl::OutOfRangeError(absl::StrCat("pc-relative displacement ", displacement,
                                              " does not fit a ", int{field.bits},
                                              "-bit field scaled by ",
                                              int64_t{1} << field.shift));
  }
  const uint64_t mask = ((uint64_t{1} << field.bits) - 1) << field.lsb;
  const uint64_t bits = (static_cast<uint64_t>(value) << field.lsb) & mask;
  return static_cast<uint32_t>((word & ~mask) | bits);
}

void CodeBuffer::AddExternalFixup(FixupKind kind, uint32_t offset, uint64_t address,
                                  int64_t addend) {
  fixups_.push_back({kind, offset, -1, address, addend});
}

absl::Status CodeBuffer::ResolveLabels() {
  for (const Fixup& f : fixups_) {
    if (f.label < 0) continue;
    int64_t target = label_offsets_[f.label];
    if (target < 0) return absl::InternalError(absl::StrCat("label ", f.label, " never bound"));
    if (f.kind == FixupKind::kPcRelField) {
      absl::StatusOr<uint32_t> word =
          InsertField(Read32(f.offset), f.field, target - static_cast<int64_t>(f.offset) + f.addend);
      if (!word.ok()) return word.status();
      Patch32(f.offset, *word);
      continue;
    }
    if (f.kind != FixupKind::kRel32) continue;
    int64_t value = target - (static_cast<int64_t>(f.offset) + 4) + f.addend;
    if (!FitsInt32(value)) return absl::OutOfRangeError("rel32 branch out of range");
    Patch32(f.offset, static_cast<uint32_t>(static_cast<int32_t>(value)));
  }
  return absl::OkStatus();
}

absl::Status CodeBuffer::Relocate(uint64_t base, absl::Span<uint8_t> code) const {
  for (const Fixup& f : fixups_) {
    if (f.label >= 0 && (f.kind == FixupKind::kRel32 || f.kind == FixupKind::kPcRelField)) {
      continue;  // position-independent: ResolveLabels patched it
    }
    uint64_t target = f.label >= 0 ? base + static_cast<uint64_t>(label_offsets_[f.label])
                                   : f.address;
    switch (f.kind) {
      case FixupKind::kAbs64:
        Store64(code.data() + f.offset, target + static_cast<uint64_t>(f.addend));
        break;
      case FixupKind::kRel32: {
        int64_t value = static_cast<int64_t>(target - (base + f.offset + 4)) + f.addend;
        if (!FitsInt32(value)) {
          return absl::OutOfRangeError(
              absl::StrCat("rel32 to 0x", absl::Hex(target), " out of range from 0x",
                           absl::Hex(base)));
        }
        Store32(code.data() + f.offset, static_cast<uint32_t>(static_cast<int32_t>(value)));
        break;
      }
      case FixupKind::kPcRelField: {
        uint32_t word;
        std::memcpy(&word, code.data() + f.offset, 4);
        absl::StatusOr<uint32_t> patched = InsertField(
            word, f.field, static_cast<int64_t>(target - (base + f.offset)) + f.addend);
        if (!patched.ok()) {
          return absl::Status(patched.status().code(),
                              absl::StrCat("reference to 0x", absl::Hex(target), " from 0x",
                                           absl::Hex(base + f.offset), ": ",
                                           patched.status().message()));
        }
        Store32(code.data() + f.offset, *patched);
        break;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace morel::codegen
