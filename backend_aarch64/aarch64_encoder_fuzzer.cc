// Fuzz target (testing/fuzz): the AArch64 encoder round trip through LLVM's
// disassembler. The input is a list of instructions, each a form and its
// operands drawn from the bytes (any register, sp, xzr or none; immediates
// at and around every form's boundaries, misaligned ones, arbitrary 64-bit
// values as bitmask candidates; shift types and amounts; condition codes
// including invalid ones). Each must either encode as one word or be
// refused with a status that appends nothing; an encoded instruction must
// decode to the form's opcode with exactly the expected operands
// (expected_operands.h). The whole sequence, encoded into one buffer, must
// decode instruction by instruction the same way.

#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backend_aarch64/disasm.h"
#include "backend_aarch64/emit.h"
#include "backend_aarch64/expected_operands.h"
#include "backend_aarch64/isa.h"
#include "engine/codegen/code_buffer.h"
#include "testing/fuzz/byte_reader.h"
#include "testing/fuzz/fuzz_target.h"

namespace morel::aarch64 {
namespace {

struct Mc {
  std::unique_ptr<McEncoder> encoder;
  std::unique_ptr<McDisassembler> disassembler;
};

Mc& GetMc() {
  static Mc* mc = [] {
    auto* m = new Mc;
    auto encoder = McEncoder::Create();
    auto disassembler = McDisassembler::Create();
    if (!encoder.ok() || !disassembler.ok()) {
      fuzz::FuzzFailure("LLVM MC initializes", "cannot create the encoder or disassembler");
    }
    m->encoder = std::move(*encoder);
    m->disassembler = std::move(*disassembler);
    return m;
  }();
  return *mc;
}

// a + b with two's-complement wrap-around (a range's bounds may be the
// int64 limits, and the fuzzer probes one step past them).
int64_t WrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

int64_t Immediate(fuzz::ByteReader& in, Form form) {
  const ImmediateRange range = GetImmediateRange(form);
  switch (in.Int(0, 5)) {
    case 0: return WrappingAdd(range.min, range.multiple * in.Int(-1, 1));
    case 1: return WrappingAdd(range.max, range.multiple * in.Int(-1, 1));
    case 2: return in.Int(-300, 300);
    case 3: return static_cast<int64_t>(in.Word());
    case 4: {  // a bitmask immediate, or a near miss
      const int64_t ones = in.Int(1, 63), rotation = in.Int(0, 63);
      uint64_t v = (uint64_t{1} << ones) - 1;
      v = rotation == 0 ? v : (v >> rotation) | (v << (64 - rotation));
      return static_cast<int64_t>(v ^ (in.Int(0, 3) == 0 ? uint64_t{1} << in.Int(0, 63) : 0));
    }
    default: return WrappingAdd(range.min, in.Int(0, 4095) * range.multiple);
  }
}

Gpr Register(fuzz::ByteReader& in) {
  const int r = static_cast<int>(in.Int(0, kNumRegNames));
  return r == kNumRegNames ? kNoGpr : static_cast<Gpr>(r);
}

std::string Describe(Form form, const FormOperands& ops) {
  return absl::StrCat(GetForm(form).llvm_name, " d=", static_cast<int>(ops.d),
                      " n=", static_cast<int>(ops.n), " m=", static_cast<int>(ops.m),
                      " a=", static_cast<int>(ops.a), " imm=", ops.imm, " imm2=", ops.imm2,
                      " shift=", static_cast<int>(ops.shift), " cc=", static_cast<int>(ops.cc));
}

void CheckDecoded(const DecodedInst& d, Form form, const FormOperands& ops) {
  Mc& mc = GetMc();
  const std::vector<DecodedOperand> want = ExpectedOperands(form, ops);
  if (d.opcode != mc.encoder->LlvmOpcode(form) || d.operands != want) {
    fuzz::FuzzFailure("an encoded instruction decodes to its form and operands",
                      absl::StrCat(Describe(form, ops), "\ngot ", d.opcode_name, " ",
                                   DescribeOperands(d.operands), "('", d.text, "'), want ",
                                   DescribeOperands(want)));
  }
}

}  // namespace
}  // namespace morel::aarch64

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morel::aarch64;
  Mc& mc = GetMc();
  morel::fuzz::ByteReader in(data, size);
  std::vector<std::pair<Form, FormOperands>> encoded;
  morel::codegen::CodeBuffer all;
  while (!in.empty() && encoded.size() < 64) {
    const Form form = static_cast<Form>(in.Int(0, static_cast<int>(Form::kNumForms) - 1));
    FormOperands ops;
    ops.d = Register(in);
    ops.n = Register(in);
    ops.m = Register(in);
    ops.a = Register(in);
    ops.imm = Immediate(in, form);
    ops.imm2 = in.Int(0, 2) == 0 ? in.Int(-2, 70) : 16 * in.Int(0, 4);
    ops.shift = static_cast<ShiftType>(in.Int(0, 3));
    ops.cc = static_cast<A64Cond>(in.Int(0, 16));
    morel::codegen::CodeBuffer one;
    absl::Status status = mc.encoder->Encode(form, ops, one);
    if (!status.ok()) {
      if (one.size() != 0) {
        morel::fuzz::FuzzFailure("a refused instruction appends nothing",
                                 absl::StrCat(Describe(form, ops), ": ", status.ToString()));
      }
      continue;
    }
    auto decoded = mc.disassembler->Decode(one.bytes());
    if (!decoded.ok() || decoded->size() != 1 || one.size() != 4) {
      // LLVM refuses to decode a few encodable words the architecture calls
      // unpredictable (a pair load of one register twice, a write-back base
      // that is also loaded): the encoder must refuse them first.
      morel::fuzz::FuzzFailure(
          "an encoded instruction decodes as one instruction",
          absl::StrCat(Describe(form, ops), ": ",
                       decoded.ok() ? absl::StrCat(decoded->size(), " instructions")
                                    : decoded.status().ToString()));
    }
    CheckDecoded((*decoded)[0], form, ops);
    if (!mc.encoder->Encode(form, ops, all).ok()) {
      morel::fuzz::FuzzFailure("encoding is deterministic", Describe(form, ops));
    }
    encoded.emplace_back(form, ops);
  }
  auto decoded = mc.disassembler->Decode(all.bytes());
  if (!decoded.ok() || decoded->size() != encoded.size()) {
    morel::fuzz::FuzzFailure("a sequence decodes instruction by instruction",
                             decoded.ok() ? absl::StrCat(decoded->size(), " instructions, want ",
                                                         encoded.size())
                                          : decoded.status().ToString());
  }
  for (size_t i = 0; i < encoded.size(); ++i) {
    CheckDecoded((*decoded)[i], encoded[i].first, encoded[i].second);
  }
  return 0;
}
