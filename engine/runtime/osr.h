#ifndef MOREL_ENGINE_RUNTIME_OSR_H_
#define MOREL_ENGINE_RUNTIME_OSR_H_

// On-stack replacement in the engine: the engine's half of osr/. The policy
// (when a loop is polled, when its OSR target is created and compiled, the
// re-attempt limit, disabling) is osr::OsrPolicy (osr/osr_policy.h) for AST
// loops and osr::BytecodeOsrPolicy (osr/bytecode_osr_policy.h) for bytecode
// interpreters; Engine delegates NodeRuntime's OSR calls to them and is their
// OsrHost here:
//  - the loop's OSR call target (osr::OsrRootNode) is the engine's, excluded
//    from splitting and from call-count compilation; its compilation is a
//    last-tier request, on the compile queue or at once without background
//    compilation (engine/pe compiles it: PartialEvaluator::EvaluateOsrLoop).
//  - RunOsr runs the installed code on the activation's frame: the code
//    loads the frame's slots, runs the rest of the loop, stores the slots
//    back before each call that may run guest code (stack walks see current
//    values) and at the exit, and its result is the loop's status.
//  - A deoptimization inside OSR code resumes the interpreter on the same
//    frame (ResumeInInterpreter finds it through the OsrActivation below),
//    which finishes the loop; the code is dropped, and a later poll may
//    compile the loop again (the policy counts the re-attempts). A
//    permanent compilation failure disables OSR for the loop.
//  - A node replaced in the function's tree drops its loops' OSR code.
//  - Bytecode OSR (BytecodeOSRNode::TryOSR from a BytecodeRootNode's back
//    edge) is the same with an osr::BytecodeOsrRootNode per (node, bci):
//    RunBytecodeOsr passes the OSR frame's storage and the activation's
//    arguments (pe::PartialEvaluator::BytecodeOsrArgument); the code runs
//    the function from the bci to its end and its result is the
//    function's. A deoptimization resumes the function's activation on the
//    OSR frame (BytecodeRootNode::Resume), which runs to the end; its
//    result is the OSR code's.

#include <memory>
#include <string>

#include "engine/config/engine_config.pb.h"
#include "engine/runtime/engine.h"
#include "nodes/frame.h"
#include "osr/osr_policy.h"

namespace morel::runtime {

// The OSR code running on this thread (innermost), while it runs.
struct OsrActivation {
  Frame* frame;               // the activation whose loop the code runs
  // Bytecode OSR: the code runs the function to its end and returns its
  // result (else a loop's, returning the loop's status).
  bool runs_to_end = false;
  bool deoptimized = false;   // the interpreter finished the loop on `frame`
  OsrActivation* previous = nullptr;
};
OsrActivation* CurrentOsrActivation();

// The OSR options of `config` (OSR needs compilation too: the host says).
osr::OsrOptions OsrOptionsFromConfig(const config::EngineConfig& config);

// The engine as the OSR policy's host.
class Engine::OsrHostImpl final : public osr::OsrHost {
 public:
  explicit OsrHostImpl(Engine* engine) : engine_(engine) {}

  bool CompilationEnabled() override;
  bool Closed() override;
  CallTarget* CreateOsrTarget(std::unique_ptr<RootNode> root) override;
  CompilationState OsrCompilationState(CallTarget& target) override;
  void RequestOsrCompilation(CallTarget& target) override;
  int RunOsrCode(CallTarget& target, InstalledCode& code, Frame& frame) override;
  Value RunBytecodeOsrCode(CallTarget& target, InstalledCode& code, Frame& frame) override;
  std::string TraceName(const CallTarget& target) override;

 private:
  Engine* engine_;
};

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_OSR_H_
