#ifndef MOREL_ENGINE_CODEGEN_MACHINE_FUNCTION_H_
#define MOREL_ENGINE_CODEGEN_MACHINE_FUNCTION_H_

// Machine IR: what a lowering pass produces from engine/ir and what a backend
// encodes. A MachineFunction is a list of blocks in layout order; each block
// holds MachineInsts and ends with exactly one terminator (Jump, Branch, Ret,
// Deopt). Operands are virtual registers (unbounded, not SSA: a vreg may be
// defined more than once, which is how lowering resolves block parameters),
// physical registers (fixed constraints: arguments, call arguments/results,
// return values, shift counts), immediates, stack slots, block labels and
// external addresses.
//
// The opcode set is small and shared by every target ("target-independent
// enough"); anything a target wants beyond it is MOp::kTarget with a target
// opcode id (backend_x86_64: an isa::Form) whose operand meaning the target
// defines. Operand layout per opcode is fixed and documented at MOp.
//
// After register allocation (register_allocator.h) every vreg operand has
// been rewritten to a kPReg (or, for deopt-state operands, possibly a
// kStackSlot) and remembers its vreg in `MachineOperand::vreg` so the
// allocation verifier can check it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace morel::codegen {

// Register classes. Every target has kGpr (64-bit integer); kFpr is reserved
// for floating point (no backend allocates it yet).
enum class RegClass : uint8_t { kGpr = 0, kFpr = 1 };
inline constexpr int kNumRegClasses = 2;

// A physical register: the target's own number (x86_64: hardware encoding,
// 0 = rax ... 15 = r15). Targets describe them in RegisterInfo.
using PReg = uint8_t;
inline constexpr PReg kNoPReg = 0xff;
inline constexpr uint32_t kNoVReg = 0xffffffffu;

// Integer comparisons (64-bit, signed and unsigned).
enum class Cond : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kULt, kULe, kUGt, kUGe };
Cond NegateCond(Cond c);
absl::string_view CondName(Cond c);

// Opcodes and their operand layout: defs -> uses.
enum class MOp : uint8_t {
  kNop,        // -
  kMov,        // d -> s                    (register copy)
  kMovImm,     // d -> imm                  (any 64-bit constant)
  kLoad,       // d -> base, imm(disp)      d = *(int64*)(base + disp)
  kStore,      // - -> base, imm(disp), src *(int64*)(base + disp) = src
  kAdd,        // d -> a, b|imm             (imm must be IsLegalImmediate)
  kSub,        // d -> a, b|imm
  kMul,        // d -> a, b|imm
  kAnd,        // d -> a, b|imm
  kOr,         // d -> a, b|imm
  kXor,        // d -> a, b|imm
  kShl,        // d -> a, b|imm             (x86: a register count must be
  kSar,        // d -> a, b|imm              the fixed preg the target names
  kShr,        // d -> a, b|imm              in RegisterInfo::shift_count)
  kAddOvf,     // d -> a, b|imm             deopt (inst.deopt) on signed overflow
  kSubOvf,     // d -> a, b|imm
  kMulOvf,     // d -> a, b|imm
  kDiv,        // d -> a, b                 signed; lowering guards b != 0 and
  kRem,        // d -> a, b                  INT64_MIN / -1 (they trap); clobbers
               //                            RegisterInfo::div_clobbers
  kMulHigh,    // d -> a, b                 the high 64 bits of the signed 128-bit
               //                            product; clobbers div_clobbers
  kNeg,        // d -> a
  kNot,        // d -> a
  kCmpSet,     // d -> a, b|imm             d = (a cond b) ? 1 : 0
  kBranch,     // - -> a, b|imm, block(then), block(else)   terminator
  kJump,       // - -> block                terminator
  kRet,        // - -> preg...              terminator; the return registers
  kCall,       // preg... -> imm(address), preg...   clobbers caller-saved
  kCallIndirect,  // preg... -> target reg, preg...
  kDeopt,      // - -> -                    terminator; exits via inst.deopt
  kDeoptIf,    // - -> a, b|imm             exits via inst.deopt if (a cond b)
  kSpill,      // - -> reg, slot            inserted by the register allocator
  kReload,     // reg -> slot               inserted by the register allocator
  kOutgoingArea,  // d -> -                 d = address of word 0 of the function's
                  //                          outgoing-argument area (see below)
  kAlloc,      // d -> imm(bytes), address(allocate)[, imm(head)]
               //   d = a new zero-filled object of `bytes` from the runtime's
               //   collected heap (engine/codegen/lower.h HeapAllocation):
               //   popped from the calling thread's free list whose head is at
               //   thread pointer + `head` if that operand is present, else
               //   (and when that list is empty) `allocate(bytes)`. Clobbers
               //   nothing but d: the backend saves around the runtime call
               //   whatever it would destroy, so the fast path needs no
               //   callee-saved registers or spills.
  kTarget,     // target-defined (target_opcode)
};
absl::string_view MOpName(MOp op);
bool IsTerminator(MOp op);

struct MachineOperand {
  enum class Kind : uint8_t { kNone, kVReg, kPReg, kImm, kStackSlot, kBlock, kAddress };
  Kind kind = Kind::kNone;
  RegClass reg_class = RegClass::kGpr;
  uint32_t index = 0;  // vreg number, preg number, stack slot or block id
  int64_t imm = 0;     // immediate or external address
  // After allocation: the vreg this operand held before rewriting.
  uint32_t vreg = kNoVReg;

  static MachineOperand VReg(uint32_t v, RegClass c = RegClass::kGpr) {
    return {Kind::kVReg, c, v, 0, kNoVReg};
  }
  static MachineOperand Phys(PReg r, RegClass c = RegClass::kGpr) {
    return {Kind::kPReg, c, r, 0, kNoVReg};
  }
  static MachineOperand Imm(int64_t v) { return {Kind::kImm, RegClass::kGpr, 0, v, kNoVReg}; }
  static MachineOperand Slot(uint32_t s) { return {Kind::kStackSlot, RegClass::kGpr, s, 0, kNoVReg}; }
  static MachineOperand Block(uint32_t b) { return {Kind::kBlock, RegClass::kGpr, b, 0, kNoVReg}; }
  static MachineOperand Address(const void* p) {
    return {Kind::kAddress, RegClass::kGpr, 0, static_cast<int64_t>(reinterpret_cast<uintptr_t>(p)),
            kNoVReg};
  }

  bool is_vreg() const { return kind == Kind::kVReg; }
  bool is_preg() const { return kind == Kind::kPReg; }
  bool is_reg() const { return is_vreg() || is_preg(); }
  bool is_imm() const { return kind == Kind::kImm; }
};

// A deopt point's state: the values the runtime needs to rebuild the
// interpreter frame, in an order the lowering pass defines (e.g. for each
// frame-state entry: payload, tag). Values may be vregs (allocated to a
// register or a stack slot: "any location" uses), pregs or immediates.
struct DeoptState {
  uint32_t id = 0;  // unique within the function; reported to the runtime
  std::vector<MachineOperand> values;
};

struct MachineInst {
  MOp op = MOp::kNop;
  Cond cond = Cond::kEq;  // kCmpSet, kBranch, kDeoptIf
  std::vector<MachineOperand> defs;
  std::vector<MachineOperand> uses;
  // Physical registers this instruction destroys (bit i = preg i), e.g. the
  // caller-saved set for calls. A clobbered register holds no value that is
  // live into, across or out of the instruction (operands included).
  uint64_t clobbers = 0;
  int32_t deopt = -1;          // index into MachineFunction::deopt_states()
  uint32_t target_opcode = 0;  // kTarget only
};

struct MachineBlock {
  uint32_t id = 0;
  std::vector<MachineInst> insts;
  std::vector<uint32_t> successors;  // derived from the terminator
  int32_t osr_entry = -1;            // >= 0: an OSR entry with this id
};

class MachineFunction {
 public:
  explicit MachineFunction(std::string name = "fn") : name_(std::move(name)) {}

  const std::string& name() const { return name_; }

  uint32_t NewVReg(RegClass c = RegClass::kGpr) {
    vreg_classes_.push_back(c);
    return static_cast<uint32_t>(vreg_classes_.size() - 1);
  }
  uint32_t num_vregs() const { return static_cast<uint32_t>(vreg_classes_.size()); }
  RegClass vreg_class(uint32_t v) const { return vreg_classes_[v]; }

  // 8-byte stack slots in the function's frame (spill slots are added here
  // by the register allocator).
  uint32_t NewStackSlot() { return num_stack_slots_++; }
  uint32_t num_stack_slots() const { return num_stack_slots_; }

  // The outgoing-argument area: `words` contiguous 8-byte words at
  // ascending addresses in the function's own frame (x86_64: at the bottom,
  // [sp + 8k]), whose address kOutgoingArea yields. Lowering stores the
  // operands of a call there and passes its address, so a call can pass any
  // number of values; the area is reused by every call (the caller is
  // suspended while a callee reads it) and is never part of a deopt state.
  void ReserveOutgoingArea(uint32_t words) {
    if (words > outgoing_area_words_) outgoing_area_words_ = words;
  }
  uint32_t outgoing_area_words() const { return outgoing_area_words_; }

  uint32_t NewBlock();
  MachineBlock& block(uint32_t id) { return blocks_[id]; }
  const MachineBlock& block(uint32_t id) const { return blocks_[id]; }
  std::vector<MachineBlock>& blocks() { return blocks_; }
  const std::vector<MachineBlock>& blocks() const { return blocks_; }

  // Appends an instruction to `block`; returns it for further edits.
  MachineInst& Append(uint32_t block, MachineInst inst);

  uint32_t AddDeoptState(DeoptState state) {
    deopt_states_.push_back(std::move(state));
    return static_cast<uint32_t>(deopt_states_.size() - 1);
  }
  std::vector<DeoptState>& deopt_states() { return deopt_states_; }
  const std::vector<DeoptState>& deopt_states() const { return deopt_states_; }

  // Recomputes MachineBlock::successors from the terminators.
  void ComputeSuccessors();

  bool allocated() const { return allocated_; }
  void set_allocated(bool a) { allocated_ = a; }

  // Compact text dump, one instruction per line, e.g.
  //   b0:
  //     v2 = add v0, v1
  //     branch.lt v2, 10, b1, b2
  // `reg_names` (indexed by preg) prints pregs by name; else as "p<n>".
  std::string Dump(const std::vector<std::string>* reg_names = nullptr) const;

 private:
  std::string name_;
  std::vector<RegClass> vreg_classes_;
  std::vector<MachineBlock> blocks_;
  std::vector<DeoptState> deopt_states_;
  uint32_t num_stack_slots_ = 0;
  uint32_t outgoing_area_words_ = 0;
  bool allocated_ = false;
};

// Convenience constructors for instructions (keep lowering code short).
namespace mi {
using Op = MachineOperand;
MachineInst Mov(Op d, Op s);
MachineInst MovImm(Op d, int64_t imm);
MachineInst Load(Op d, Op base, int32_t disp);
MachineInst Store(Op base, int32_t disp, Op src);
MachineInst Binary(MOp op, Op d, Op a, Op b);
MachineInst Unary(MOp op, Op d, Op a);
MachineInst CmpSet(Cond c, Op d, Op a, Op b);
MachineInst Branch(Cond c, Op a, Op b, uint32_t then_block, uint32_t else_block);
MachineInst Jump(uint32_t block);
MachineInst Ret(std::vector<Op> regs);
// A call to `address`: `args` and `results` are pregs; clobbers `clobbers`.
MachineInst Call(const void* address, std::vector<Op> args, std::vector<Op> results,
                 uint64_t clobbers);
MachineInst Deopt(int32_t state);
MachineInst OutgoingArea(Op d);
// d = alloc `bytes` through `allocate`, popping from the thread-local free
// list at `head` (a thread-pointer offset) first if there is one.
MachineInst Alloc(Op d, int64_t bytes, const void* allocate, std::optional<int32_t> head);
MachineInst DeoptIf(Cond c, Op a, Op b, int32_t state);
}  // namespace mi

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_MACHINE_FUNCTION_H_
