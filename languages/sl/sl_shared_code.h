#ifndef MOREL_LANGUAGES_SL_SL_SHARED_CODE_H_
#define MOREL_LANGUAGES_SL_SL_SHARED_CODE_H_

// SLSharedCode: the part of SL that every context of one engine shares when
// code is shared between contexts (Truffle's code sharing: one language
// instance per engine, one call target per source): a cache of parsed
// sources and their call targets, the builtins' call targets, and the
// function-name ids that shared ASTs use.
//
// Shared code is context-independent: a function literal is an id that the
// running context resolves (SLFunctionLiteralNode), a direct-call cache is
// keyed by call target instead of function (InvokeDirect), and a builtin
// serves the context running on the calling thread (SLContext::Current).
// So profiles, specializations, splits and compiled code of a source are
// made once and serve every context that evaluates the same source (the
// same name and text). The embedding API's engines share code
// (engine/api/embedding.h); the launcher's single context does not need
// to, and keeps constant function literals.
//
// Lifetime of a source's unit: it lives while some context's function runs
// one of its targets (`users`); when the last such function is redefined or
// its context dies, the unit leaves the cache and its targets are retired
// (Engine::RetireCallTarget: freed once no activation, call node or code
// names them). Evaluating the same source again then parses it again.
//
// Threads: everything here runs on the guest thread (the embedding API's
// guest lock serializes contexts); compiler threads never touch it.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/runtime/engine.h"
#include "languages/sl/runtime/sl_function.h"
#include "nodes/call_target.h"

namespace morel::sl {

class SLSharedCode {
 public:
  explicit SLSharedCode(runtime::Engine &engine);
  // --sl.UseBytecode of the code (the same for every context that shares
  // it; the first context sets it).
  void set_use_bytecode(bool use_bytecode) { use_bytecode_ = use_bytecode; }
  bool use_bytecode() const { return use_bytecode_; }
  // Contexts created for this code so far (they agree on use_bytecode).
  int contexts_created() const { return contexts_created_; }
  void NoteContextCreated() { ++contexts_created_; }
  // After every context that used it: waits for the engine's compilations
  // and retires every target it still holds.
  ~SLSharedCode();
  SLSharedCode(const SLSharedCode &) = delete;
  SLSharedCode &operator=(const SLSharedCode &) = delete;

  runtime::Engine &engine() { return engine_; }
  FunctionIds &function_ids() { return function_ids_; }
  // The builtins' targets, in Builtins() order (their roots serve the
  // current context).
  absl::Span<CallTarget *const> builtin_targets() const { return builtin_targets_; }

  // One parsed source: its functions' targets, in source order.
  struct Unit {
    std::vector<std::pair<std::string, CallTarget *>> functions;
    int users = 0;  // contexts' functions that run one of the targets
    const std::pair<std::string, std::string> *key = nullptr;  // in units_
  };
  // The unit of `text` named `source_name`, parsed and built on the first
  // request, then from the cache. A syntax error is the parser's
  // InvalidArgumentError and caches nothing.
  absl::StatusOr<Unit *> Load(absl::string_view text, absl::string_view source_name);
  // A context's function now runs `target` / stopped running it (null and
  // builtins' targets are ignored). The last release of a unit's targets
  // evicts the unit.
  void Acquire(const CallTarget *target);
  void Release(const CallTarget *target);
  // Evicts `unit` if no function runs its targets (a source that defined
  // nothing, or whose functions were all redefined at once).
  void EvictIfUnused(Unit *unit);

 private:
  void Evict(Unit *unit);

  int contexts_created_ = 0;
  bool use_bytecode_ = false;
  runtime::Engine &engine_;
  FunctionIds function_ids_;
  std::vector<CallTarget *> builtin_targets_;
  // By (source name, text); a node map: units point to their keys.
  absl::node_hash_map<std::pair<std::string, std::string>, Unit> units_;
  absl::flat_hash_map<const CallTarget *, Unit *> unit_of_target_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_SL_SHARED_CODE_H_
