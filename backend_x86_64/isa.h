#ifndef MOREL_BACKEND_X86_64_ISA_H_
#define MOREL_BACKEND_X86_64_ISA_H_

// The instruction forms this backend emits: one declarative table (isa.cc)
// giving each form its LLVM MC opcode name (resolved through MCInstrInfo at
// start-up: llvm-14-dev ships no generated opcode enum), the MCInst operand
// layout, and its AT&T text pattern (what MCInstPrinter prints; the encoder
// round-trip tests compare against it, and it documents the form).
//
// Pattern placeholders: {d} {s} 64-bit dst/src, {d32} {d8} {s8} narrower,
// {m} memory "disp(%base)", {fs} "%fs:disp", {i} immediate, {cc} condition
// suffix.

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "backend_x86_64/regs.h"
#include "engine/codegen/machine_function.h"

namespace morel::x86_64 {

// MCInst operand layouts.
enum class Layout : uint8_t {
  kNone,        // -
  kR,           // d
  kRTied,       // d, d
  kRR,          // d, s
  kRRTied,      // d, d, s
  kRI,          // d, i
  kRITied,      // d, d, i
  kRRI,         // d, s, i
  kRM,          // d, [base + disp]
  kMR,          // [base + disp], s
  kR8Cond,      // d8, cc
  kR32R8,       // d32, s8
  kRRTiedCond,  // d, d, s, cc
  kRel32,       // i (pc-relative displacement)
  kRel32Cond,   // i, cc
  kI,           // i
  kRFs,         // d, %fs:disp (thread-pointer relative: static TLS)
  kFsR,         // %fs:disp, s
  kMI,          // [base + disp], i (32-bit, sign-extended)
};

enum class Form : uint16_t {
  kMovRR, kMovRI64, kMovRI32, kLoad, kStore, kLea,
  kAddRR, kAddRI8, kAddRI32, kSubRR, kSubRI8, kSubRI32,
  kImulRR, kImulRRI8, kImulRRI32,
  kAndRR, kAndRI8, kAndRI32, kOrRR, kOrRI8, kOrRI32, kXorRR, kXorRI8, kXorRI32,
  kCmpRR, kCmpRI8, kCmpRI32, kCmpRM, kTestRR, kTestRI32,
  kNeg, kNot, kCqo, kIdiv,
  kShlCL, kSarCL, kShrCL, kShlRI, kSarRI, kShrRI,
  kSetcc, kMovzxR32R8, kCmov,
  kJcc, kJmp, kCallRel32, kCallR, kRet, kPush, kPop, kPushI32,
  kCmpRFs, kLoadFs, kStoreFs, kStoreI32,
  // New forms go last: the encoder fuzzer's corpus names forms by index.
  kImulR,
  kNumForms,
};

struct FormInfo {
  Form form;
  absl::string_view llvm_name;
  Layout layout;
  absl::string_view att;
};

absl::Span<const FormInfo> Forms();
const FormInfo& GetForm(Form f);

// x86 condition codes as LLVM's X86::CondCode numbers them.
enum class X86Cond : uint8_t {
  kO = 0, kNO = 1, kB = 2, kAE = 3, kE = 4, kNE = 5, kBE = 6, kA = 7,
  kS = 8, kNS = 9, kP = 10, kNP = 11, kL = 12, kGE = 13, kLE = 14, kG = 15,
};
X86Cond ToX86Cond(codegen::Cond c);
absl::string_view CondSuffix(X86Cond c);

// Operands of one instruction in form terms (the layout says which count).
struct FormOperands {
  Gpr dst = kNoGpr;
  Gpr src = kNoGpr;
  Gpr base = kNoGpr;
  int64_t imm = 0;
  int32_t disp = 0;
  X86Cond cc = X86Cond::kE;
};

// The AT&T text the disassembler prints for `form` with `ops`.
std::string ExpectedAtt(Form form, const FormOperands& ops);

// The immediates `form` encodes exactly (for forms with an immediate
// operand; pc-relative forms take any int32 displacement): MOV64ri any
// int64, the *ri8 forms an int8, shifts a count in [0, 63], the others an
// int32 (sign-extended to 64 bits). The encoder refuses anything else.
struct ImmediateRange {
  int64_t min;
  int64_t max;
};
ImmediateRange GetImmediateRange(Form form);

inline bool FitsInt8(int64_t v) { return v >= -128 && v <= 127; }
inline bool FitsInt32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_ISA_H_
