#ifndef MOREL_LANGUAGES_SL_BYTECODE_PARSER_H_
#define MOREL_LANGUAGES_SL_BYTECODE_PARSER_H_

// SL's bytecode mode (--sl.UseBytecode, sl_spec §0.1; Truffle SL's
// SLBytecodeParser): turns the parser's resolved AST into the code of an
// SLBytecodeRootNode through nodes/bytecode's builder. Every operation is an
// SL node -- the AST interpreter's own classes, built without children --
// so both interpreters run the same specializations:
//
//   construct            bytecode
//   parameter i -> s     argument i NULL; store.local s
//   number/string        constant
//   read local s         load.local s where every path has assigned s
//                        (definite assignment), else load.local.checked s
//                        ReadLocal(s) (its error if never assigned)
//   write local s        <value>; dup; store.local s
//   function literal     constant (single-context) | op FunctionLiteral 0
//   a + b (etc.)         <a>; <b>; op Add 2 (> >= != : op Not 1 after)
//   a && b, a || b       short circuit with op ToBoolean 1 on each operand
//   f(args)              <f>; <args>; op Invoke n+1
//   o.k, o[k]            <o>; <k>; op ReadProperty 2
//   o.k = v              <o>; <k>; <v>; op WriteProperty 3
//   expression;          <e>; pop
//   s = v;               <value>; store.local s
//   if / while           <c>; op ToBoolean 1; branch.false ...; branches
//                        (a comparison c: no ToBoolean; a negated one,
//                        `a > b`: op LessEqual 2; branch.true ...)
//   break / continue     branch to the loop's exit / header
//   return e             <e or NULL>; return
//   end of the function  constant NULL; return
//
// The builder fuses `constant; op` into op.const and `op; store.local` into
// op.store (nodes/bytecode/bytecode.h).
//
// Error locations come from the operations' source sections, which are the
// AST nodes' (node_builder.cc), so messages are identical in both modes.

#include <memory>

#include "languages/sl/parser/ast.h"
#include "languages/sl/root_nodes.h"
#include "nodes/source.h"

namespace morel::sl {

std::unique_ptr<SLBytecodeRootNode> BuildBytecodeFunctionRoot(
    const FunctionBinding& binding, std::shared_ptr<const ast::Program> program,
    std::shared_ptr<const Source> source, int function_index);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_BYTECODE_PARSER_H_
