#ifndef MOREL_ENGINE_CODEGEN_CODE_BUFFER_H_
#define MOREL_ENGINE_CODEGEN_CODE_BUFFER_H_

// CodeBuffer: the bytes of one function being emitted, its labels and the
// fixups that refer to them. Code is emitted position-independently; fixups
// are resolved in two steps:
//   * label fixups (pc-relative branches to labels inside the buffer) are
//     resolved by ResolveLabels() once every label is bound;
//   * relocations that need the final address (absolute 64-bit addresses of
//     labels, pc-relative references to external addresses) are applied by
//     Relocate(base) when the code cache has chosen where the code lives.
// The buffer knows no instruction set: a pc-relative field is either a whole
// 32-bit word (kRel32) or a bit field of a 32-bit instruction word described
// by a FixupField (kPcRelField), which a backend fills in for its branch
// forms. Little-endian targets only.

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace morel::codegen {

class Label {
 public:
  Label() = default;
  bool valid() const { return id_ >= 0; }
  int id() const { return id_; }

 private:
  friend class CodeBuffer;
  explicit Label(int id) : id_(id) {}
  int id_ = -1;
};

enum class FixupKind : uint8_t {
  // 32-bit signed pc-relative: value = target - (offset + 4) + addend.
  // (x86 jcc/jmp/call rel32: the displacement ends the instruction.)
  kRel32,
  // 64-bit absolute address of the target (needs the final address).
  kAbs64,
  // A signed pc-relative displacement in a bit field of the 32-bit word at
  // `offset`, relative to that word: value = target - offset + addend, which
  // must be a multiple of 2^field.shift and fit in field.bits bits once
  // shifted; it goes to bits [field.lsb, field.lsb + field.bits) and the
  // word's other bits stay. (AArch64: b/bl imm26, b.cond/cbz imm19, tbz
  // imm14, all in words.)
  kPcRelField,
};

// Where a kPcRelField displacement lives in its instruction word.
struct FixupField {
  uint8_t lsb = 0;    // first bit of the field
  uint8_t bits = 0;   // width of the field, 1..32
  uint8_t shift = 0;  // the field holds value >> shift (low bits must be 0)
};

struct Fixup {
  FixupKind kind;
  uint32_t offset;   // where the field starts in the buffer
  int label = -1;    // target label, or -1 for an external address
  uint64_t address = 0;  // external target
  int64_t addend = 0;
  FixupField field;  // kPcRelField only
};

class CodeBuffer {
 public:
  size_t size() const { return bytes_.size(); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  uint8_t* data() { return bytes_.data(); }

  void Emit8(uint8_t b) { bytes_.push_back(b); }
  void Emit32(uint32_t v);
  void Emit64(uint64_t v);
  void EmitBytes(absl::Span<const uint8_t> b) { bytes_.insert(bytes_.end(), b.begin(), b.end()); }
  // Pads with `fill` until size() is a multiple of `alignment` (power of 2).
  void Align(uint32_t alignment, uint8_t fill);

  void Patch32(uint32_t offset, uint32_t v);
  void Patch64(uint32_t offset, uint64_t v);
  uint32_t Read32(uint32_t offset) const;

  Label NewLabel();
  // Binds `label` to the current offset. A label is bound at most once.
  void Bind(Label label);
  bool IsBound(Label label) const { return label_offsets_[label.id()] >= 0; }
  int64_t LabelOffset(Label label) const { return label_offsets_[label.id()]; }

  // Records a fixup of the field at `offset` referring to `label`.
  void AddLabelFixup(FixupKind kind, uint32_t offset, Label label, int64_t addend = 0);
  // Records a kPcRelField fixup of the instruction word at `offset`.
  void AddLabelFieldFixup(uint32_t offset, FixupField field, Label label);
  // Records a fixup referring to an absolute external address.
  void AddExternalFixup(FixupKind kind, uint32_t offset, uint64_t address, int64_t addend = 0);
  void AddExternalFieldFixup(uint32_t offset, FixupField field, uint64_t address);

  // Patches every pc-relative label fixup. Fails on unbound labels and on
  // displacements out of their field's range (OutOfRange: e.g. a
  // conditional branch farther than an AArch64 imm19 reaches).
  absl::Status ResolveLabels();
  // Applies the fixups that depend on the final address `base` to `code`
  // (a copy of bytes() about to be installed at `base`). Fails if a
  // pc-relative reference to an external address is out of range.
  absl::Status Relocate(uint64_t base, absl::Span<uint8_t> code) const;

  // The word `field` of `word` holding `displacement` (a byte distance), or
  // OutOfRange / InvalidArgument (misaligned) naming both.
  static absl::StatusOr<uint32_t> InsertField(uint32_t word, FixupField field,
                                              int64_t displacement);

  const std::vector<Fixup>& fixups() const { return fixups_; }

 private:
  std::vector<uint8_t> bytes_;
  std::vector<int64_t> label_offsets_;
  std::vector<Fixup> fixups_;
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_CODE_BUFFER_H_
