#include "backend_x86_64/regs.h"

namespace morel::x86_64 {
namespace {

constexpr absl::string_view kLlvm[3][kNumGprs] = {
    {"RAX", "RCX", "RDX", "RBX", "RSP", "RBP", "RSI", "RDI",
     "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"},
    {"EAX", "ECX", "EDX", "EBX", "ESP", "EBP", "ESI", "EDI",
     "R8D", "R9D", "R10D", "R11D", "R12D", "R13D", "R14D", "R15D"},
    {"AL", "CL", "DL", "BL", "SPL", "BPL", "SIL", "DIL",
     "R8B", "R9B", "R10B", "R11B", "R12B", "R13B", "R14B", "R15B"},
};

constexpr absl::string_view kAtt[3][kNumGprs] = {
    {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
     "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"},
    {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
     "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"},
    {"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil",
     "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"},
};

}  // namespace

absl::string_view LlvmRegName(Gpr r, Width w) { return kLlvm[static_cast<int>(w)][r]; }
absl::string_view AttRegName(Gpr r, Width w) { return kAtt[static_cast<int>(w)][r]; }

}  // namespace morel::x86_64
