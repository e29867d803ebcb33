// Fuzz target (testing/fuzz): the x86_64 encoder round trip through LLVM's
// disassembler. The input is a list of instructions, each a form and its
// operands drawn from the bytes (registers, including "none"; immediates
// and displacements of every width, boundary values likely; condition codes
// including invalid ones). Each must either encode or be refused with a
// status that appends nothing; an encoded instruction must decode as one
// instruction of the form's opcode whose AT&T text is the form's pattern
// (isa.h ExpectedAtt). The whole sequence, encoded into one buffer, must
// decode instruction by instruction the same way.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backend_x86_64/disasm.h"
#include "backend_x86_64/emit.h"
#include "backend_x86_64/isa.h"
#include "engine/codegen/code_buffer.h"
#include "testing/fuzz/byte_reader.h"
#include "testing/fuzz/fuzz_target.h"

namespace morel::x86_64 {
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

int64_t Immediate(fuzz::ByteReader& in) {
  static constexpr int64_t kBoundary[] = {0,         1,         -1,        63,        64,
                                          127,       128,       -128,      -129,      255,
                                          INT32_MAX, INT32_MIN, int64_t{INT32_MAX} + 1,
                                          int64_t{INT32_MIN} - 1, INT64_MAX, INT64_MIN};
  switch (in.Int(0, 4)) {
    case 0: return kBoundary[in.Index(std::size(kBoundary))];
    case 1: return in.Int(-128, 127);
    case 2: return in.Int(INT32_MIN, INT32_MAX);
    case 3: return static_cast<int64_t>(in.Word());
    default: return in.Int(0, 70);
  }
}

Gpr Register(fuzz::ByteReader& in) {
  const int r = static_cast<int>(in.Int(0, kNumGprs));
  return r == kNumGprs ? kNoGpr : static_cast<Gpr>(r);
}

std::string Describe(Form form, const FormOperands& ops) {
  return absl::StrCat(GetForm(form).llvm_name, " dst=", static_cast<int>(ops.dst),
                      " src=", static_cast<int>(ops.src), " base=", static_cast<int>(ops.base),
                      " imm=", ops.imm, " disp=", ops.disp, " cc=", static_cast<int>(ops.cc));
}

void CheckDecoded(const DecodedInst& d, Form form, const FormOperands& ops) {
  Mc& mc = GetMc();
  const std::string want = ExpectedAtt(form, ops);
  if (d.text != want || d.opcode != mc.encoder->LlvmOpcode(form)) {
    fuzz::FuzzFailure("an encoded instruction disassembles to its form's pattern",
                      absl::StrCat(Describe(form, ops), "\ngot '", d.text, "' (", d.opcode_name,
                                   "), want '", want, "'"));
  }
}

}  // namespace
}  // namespace morel::x86_64

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morel::x86_64;
  Mc& mc = GetMc();
  morel::fuzz::ByteReader in(data, size);
  std::vector<std::pair<Form, FormOperands>> encoded;
  morel::codegen::CodeBuffer all;
  while (!in.empty() && encoded.size() < 64) {
    const Form form = static_cast<Form>(in.Int(0, static_cast<int>(Form::kNumForms) - 1));
    FormOperands ops;
    ops.dst = Register(in);
    ops.src = Register(in);
    ops.base = Register(in);
    ops.imm = Immediate(in);
    ops.disp = static_cast<int32_t>(in.Int(0, 1) == 0 ? in.Int(-300, 300)
                                                      : Immediate(in));
    ops.cc = static_cast<X86Cond>(in.Int(0, 17));
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
    if (!decoded.ok() || decoded->size() != 1) {
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
