#ifndef MOREL_BACKEND_AARCH64_EXPECTED_OPERANDS_H_
#define MOREL_BACKEND_AARCH64_EXPECTED_OPERANDS_H_

// Test support (emit_test, aarch64_encoder_fuzzer): what decoding an encoded form
// must give back, stated independently of the encoder -- each layout's
// MCInst operands in LLVM's order and units (ldr/str and pair offsets in
// words of 8 bytes, branch displacements in words of 4, bitmask immediates
// encoded, shifted-register forms' shifter as type << 6 | amount).

#include <string>
#include <vector>

#include "backend_aarch64/disasm.h"
#include "backend_aarch64/isa.h"

namespace morel::aarch64 {

std::vector<DecodedOperand> ExpectedOperands(Form form, const FormOperands& ops);
// "r1 r2 #42 " for failure messages.
std::string DescribeOperands(const std::vector<DecodedOperand>& ops);

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_EXPECTED_OPERANDS_H_
