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
  // Its compiled form, if simpler than a call (nodes/invoke_node.h).
  DirectlyCallableBuiltin::Intrinsic intrinsic = DirectlyCallableBuiltin::Intrinsic::kNone;
};

const std::vector<BuiltinSpec>& Builtins();

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_BUILTINS_H_
