#ifndef MOREL_ENGINE_RUNTIME_COMPILER_H_
#define MOREL_ENGINE_RUNTIME_COMPILER_H_

// The engine's compilation pipeline and compiled-code tiers: partial
// evaluation (engine/pe) -> optimization (engine/opt) -> installed code, and
// deoptimization back into the interpreter (nodes/resume.h).
//
// Tiers: `Backend=ir_interpreter` runs the optimized IR in the reference IR
// interpreter (a debug tier that checks partial evaluation and
// deoptimization without machine code); the native tier
// (engine/runtime/native_tier.h) runs machine code.

#include <memory>
#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "engine/ir/deopt_frame.h"
#include "engine/ir/runtime_function.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/runtime/inlining.h"
#include "nodes/call_target.h"

namespace morel::runtime {

class Engine;

// Compiled code of one call target in the IR-interpreter tier.
class IrTierCode : public InstalledCode {
 public:
  IrTierCode(Engine& engine, std::unique_ptr<pe::Compilation> compilation)
      : engine_(engine), compilation_(std::move(compilation)) {}
  Value Invoke(CallTarget& target, absl::Span<const Value> arguments) override;
  const pe::Compilation& compilation() const { return *compilation_; }

 private:
  Engine& engine_;
  std::unique_ptr<pe::Compilation> compilation_;
};

// Finishes `target`'s activation in the interpreter from the frames of a
// deoptimization of compiled code (innermost first: one per inlined call,
// the last `target`'s own; `compilation`'s resume templates), after telling
// the engine (Engine::OnDeoptimized: which drops the code unless `action`
// is kKeepCode). First the virtual objects the frames name (`objects`,
// ir::DeoptFrame::Slot::object: allocations escape analysis removed) are
// allocated in the guest heap, one per object however many slots and
// fields name it (ir::MaterializeDeoptObjects), and kept reachable until
// the activation is done. Each inlined frame becomes an interpreter
// activation of its call target; the innermost resumes at the failing
// point and each result is handed to its caller at the call. Returns
// `target`'s result.
Value ResumeInInterpreter(Engine& engine, CallTarget& target,
                          const pe::Compilation& compilation,
                          absl::Span<const ir::DeoptFrame> frames,
                          absl::Span<const ir::DeoptObject> objects, const std::string& reason,
                          ir::DeoptAction action, absl::Span<const Value> arguments);

// Partially evaluates and optimizes `target` for compilation tier `tier`
// (1 first, 2 last: Engine::SetTierOptions). Unimplemented: a construct
// the partial evaluator cannot compile (the reason names it). Partial
// evaluation holds the root's lock, so it sees one consistent tree;
// `rewrite_count` receives the root's rewrite count of that tree. With a
// `diagnostic_dump` (CompilationFailureAction=Diagnose), the IR after
// partial evaluation and after every pass is verified and printed there,
// and so is the reason of a failure.
// The inlining phase (engine/runtime/inlining.h) runs for every compilation
// but OSR's; `inlining` receives what it did, for the traces.
absl::StatusOr<std::unique_ptr<pe::Compilation>> CompileToIr(
    Engine& engine, CallTarget& target, ir::RuntimeRegistry& runtime, int tier,
    uint64_t* rewrite_count = nullptr, std::ostream* diagnostic_dump = nullptr,
    InliningReport* inlining = nullptr);

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_COMPILER_H_
