#ifndef MOREL_LANGUAGES_SL_BUILTINS_H_
#define MOREL_LANGUAGES_SL_BUILTINS_H_

// SL's builtin functions (sl_spec §9), registered before a program runs.

#include <vector>

#include "languages/sl/root_nodes.h"

namespace morel::sl {

struct BuiltinSpec {
  const char* name;
  int arity;
  BuiltinFunction function;
  // Reads or writes the caller's frame (stacktrace, helloEqualsWorld).
  bool inspects_caller_frame = false;
  // Writes it (helloEqualsWorld).
  bool writes_caller_frame = false;
  // Runs guest code or redefines functions (eval, defineFunction, exit's
  // shutdown hooks): compiled callers check for invalidation afterwards.
  bool may_run_guest_code = false;
  // Calls guest functions (eval, exit's shutdown hooks). Its frame is where
  // a stack walk from them stops (an internal frame, sl_spec §9), so
  // compiled callers call it through its call target, as the interpreter
  // does, never as a runtime call without a frame.
  bool calls_guest_functions = false;
  // Its compiled form, if simpler than a call (nodes/invoke_node.h).
  DirectlyCallableBuiltin::Intrinsic intrinsic = DirectlyCallableBuiltin::Intrinsic::kNone;
};

const std::vector<BuiltinSpec>& Builtins();

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_BUILTINS_H_
