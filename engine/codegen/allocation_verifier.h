#ifndef MOREL_ENGINE_CODEGEN_ALLOCATION_VERIFIER_H_
#define MOREL_ENGINE_CODEGEN_ALLOCATION_VERIFIER_H_

// Checks a register allocation two independent ways:
//
//  * VerifyAllocation (symbolic execution, like regalloc2's checker): a
//    forward dataflow over the allocated function tracks which vreg each
//    location (register or stack slot) holds; every operand that remembers a
//    vreg must find that vreg in its location on every path. Clobbers and
//    writes of plain pregs make a location hold "nothing". Also rejects
//    leftover vreg operands and allocations of the stack/frame pointer or of
//    registers that are not allocatable.
//  * VerifyIntervals: no two overlapping intervals share a register, and no
//    interval overlaps a fixed range of its register.

#include "absl/status/status.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_allocator.h"
#include "engine/codegen/register_info.h"

namespace morel::codegen {

absl::Status VerifyAllocation(const MachineFunction& mf, const RegisterInfo& ri);
absl::Status VerifyIntervals(const AllocationResult& result);

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_ALLOCATION_VERIFIER_H_
