#ifndef MOREL_LANGUAGES_SL_SL_CONTEXT_H_
#define MOREL_LANGUAGES_SL_SL_CONTEXT_H_

// SLContext: one running SL program — its function registry (builtins
// included), its standard streams, its shutdown hooks — on top of a Morel
// engine. This is SL's implementation of the small language interface of
// DESIGN §8: parse source -> call targets, register builtins, print values.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/runtime/engine.h"
#include "languages/sl/parser/ast.h"
#include "languages/sl/runtime/sl_function.h"
#include "languages/sl/sl_shared_code.h"
#include "nodes/source.h"
#include "nodes/value.h"

namespace morel::sl {

class SLContext {
 public:
  // Registers the builtins. Streams default to the process's.
  // `owns_engine`: the context is the engine's only one and its end closes
  // the engine (the launcher, most tests). Otherwise (several contexts on
  // one engine: engine/api/embedding.h) its end waits for the engine's
  // compilations and retires the context's call targets, leaving the
  // engine to the other contexts.
  //
  // `shared`: the engine's shared code (sl_shared_code.h), which must
  // outlive the context, or null for code of this context alone. With it,
  // Load takes sources from the shared cache and the builtins are the
  // shared ones; the context must not own the engine.
  explicit SLContext(runtime::Engine *engine, std::FILE *out = stdout, std::FILE *in = stdin,
                     bool owns_engine = true, SLSharedCode *shared = nullptr);
  ~SLContext();
  SLContext(const SLContext &) = delete;
  SLContext &operator=(const SLContext &) = delete;

  runtime::Engine &engine() { return *engine_; }
  FunctionRegistry &functions() { return functions_; }

  // --sl.UseBytecode: functions Load makes from now on run in the bytecode
  // interpreter (bytecode_parser.h). A context of shared code follows its
  // shared code's mode instead.
  void set_use_bytecode(bool use_bytecode) { use_bytecode_ = use_bytecode; }
  bool use_bytecode() const { return use_bytecode_; }

  // The context whose guest code runs on this thread: set by Call (and so
  // for everything guest code does). Shared builtins serve it.
  static SLContext &Current();

  // Parses `text` (named `source_name` in messages) and registers its
  // functions, redefining existing ones (sl_spec §1.3). Returns the unit's
  // own `main` if it defines one, else null. A parse error is an
  // InvalidArgumentError holding the exact "Error(s) parsing script:" text.
  absl::StatusOr<SLFunction *> Load(absl::string_view text, absl::string_view source_name);

  // Calls `function` (which must be defined) with `args`, with this
  // context current on the calling thread.
  Value Call(SLFunction *function, absl::Span<const Value> args);

  // Standard streams. Print charges the engine's MaxOutputStreamSize first
  // (a ResourceLimitError, nothing written, when the text does not fit).
  void Print(absl::string_view text);
  // One line of input without its terminator; false at end of input.
  bool ReadLine(std::string *line);

  void AddShutdownHook(SLFunction *hook) { shutdown_hooks_.push_back(hook); }
  // Runs the hooks once, in registration order (sl_spec §9).
  void RunShutdownHooks();

 private:
  void RegisterBuiltins();
  // Defines `name` to run `target` (shared code: counts the units' users).
  void Define(absl::string_view name, CallTarget *target);
  absl::StatusOr<SLFunction *> LoadShared(absl::string_view text, absl::string_view source_name);

  runtime::Engine *engine_;
  SLSharedCode *shared_;
  bool use_bytecode_ = false;
  bool owns_engine_;
  std::FILE *out_;
  std::FILE *in_;
  FunctionRegistry functions_;
  std::vector<SLFunction *> shutdown_hooks_;
  bool hooks_ran_ = false;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_SL_CONTEXT_H_
