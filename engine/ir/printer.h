#ifndef MOREL_ENGINE_IR_PRINTER_H_
#define MOREL_ENGINE_IR_PRINTER_H_

// The text form of the IR: compact, one line per instruction, and exactly
// what parser.h reads back (Parse(Print(f)) prints identically). Grammar:
//
//   declare @name(T, ...) -> (T, ...) [may_deopt]
//   func @name(T, ...) -> (T, ...) {
//     fsN = eager|lazy interpreter target I resume R locals [vP:vT, illegal, ...]
//           stack [vP:vT, ...] [parent fsM]                 (one line)
//   blockN(vI: T, ...):                                      (or `blockN:`)
//     vI = iconst.T N          vI = pconst 0xHEX
//     vI = op a[, b]           vI = icmp cond a, b          vI = select c, a, b
//     vI = zext.T a            vI = load.T p, offset[, alias "class"]
//     store.T x, p, offset[, alias "class"]
//     [vI[, vJ] =] call_runtime @name(args) -> (T, ...)[, fsN]
//     [vI[, vJ] =] call_target @id(args) -> (T, ...)[, fsN]
//     guard c, fsN, "reason"[, keep_code]                   safepoint fsN
//     jump blockN(args)        br c, blockN(args), blockM(args)
//     return a, ...            deopt fsN, "reason"[, keep_code]       unreachable
//   }
// `alias "class"`: the access's alias class (alias_class.h); without it the
// class is unknown (may alias anything).
// `keep_code`: deoptimizing there keeps the code (DeoptAction::kKeepCode,
// frame_state.h); without it the code is invalidated.
// `;` starts a comment to the end of the line. Block arguments print in
// parentheses only when there are some.

#include <ostream>
#include <string>

#include "engine/ir/function.h"
#include "engine/ir/runtime_function.h"

namespace morel::ir {

std::string PrintFunction(const Function& function);
std::string PrintInstruction(const Instruction& inst);  // no indent, no newline
std::string PrintFrameState(const FrameState& fs);      // "fsN = ..."
std::string PrintBlockHeader(const Block& block);       // "blockN(v0: i64):"
std::string PrintRuntimeDeclaration(const RuntimeFunction& f);
// `declare` lines for every runtime function `function` calls, sorted by
// name, each ending in a newline.
std::string PrintRuntimeDeclarations(const Function& function);
// "v3"; "<null>" for nullptr.
std::string ValueName(const Value* v);

std::ostream& operator<<(std::ostream& os, const Function& function);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_PRINTER_H_
