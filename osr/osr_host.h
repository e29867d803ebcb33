#ifndef MOREL_OSR_OSR_HOST_H_
#define MOREL_OSR_OSR_HOST_H_

// What the OSR policies (osr_policy.h for AST loops, bytecode_osr_policy.h
// for bytecode interpreters) need from a compiler, and their options. The
// engine implements the host (engine/runtime/osr.cc); a component used
// alone can fake it (osr/osr_example.cc, the tests).

#include <memory>
#include <string>

#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/root_node.h"
#include "nodes/value.h"

namespace morel::osr {

// The options of the OSR policies; the defaults are the engine's
// (EngineConfig).
struct OsrOptions {
  bool enabled = true;                   // OSR
  bool always_osr = false;               // AlwaysOSR
  int compilation_threshold = 100352;    // OSRCompilationThreshold
  int max_compilation_re_attempts = 30;  // OSRMaxCompilationReAttempts
  bool trace_compilation = false;        // TraceCompilation: "opt osr disabled"
};

// What the OSR policies need from the compiler (the engine implements it).
class OsrHost {
 public:
  enum class CompilationState {
    kIdle,       // neither queued nor compiling (code installed or not)
    kCompiling,  // queued or being compiled: keep interpreting
    kFailed,     // failed permanently: OSR is disabled for the loop/method
  };

  virtual ~OsrHost() = default;

  // Whether the host compiles at all (no: the loops are never polled).
  virtual bool CompilationEnabled() = 0;
  // Whether the host is shutting down (no new OSR requests).
  virtual bool Closed() { return false; }
  // Creates the call target of `root` (an OsrRootNode or a
  // BytecodeOsrRootNode) and keeps it as long as the host; it is never
  // compiled by its call count, only by RequestOsrCompilation. Called once
  // per loop or bytecode entry (node, target bci).
  virtual CallTarget* CreateOsrTarget(std::unique_ptr<RootNode> root) = 0;
  virtual CompilationState OsrCompilationState(CallTarget& target) = 0;
  // Requests the compilation of `target` at the tier OSR code gets (the
  // engine: a last-tier request); the code may be installed on return (no
  // background compilation) or later.
  virtual void RequestOsrCompilation(CallTarget& target) = 0;
  // Runs the rest of the loop in `code` on `frame`; returns the loop's
  // status.
  virtual int RunOsrCode(CallTarget& target, InstalledCode& code, Frame& frame) = 0;
  // Runs `code` of a bytecode OSR target from its entry bci to the end of
  // the function on `osr_frame` (a copy of the activation's frame that
  // BytecodeOSRNode::CopyIntoOSRFrame filled, the current frame while the
  // code runs); returns the function's result. Only called for targets of
  // BytecodeOsrRootNodes, which only exist on a runtime that delegates
  // NodeRuntime::TryBytecodeOSR to a BytecodeOsrPolicy; the default fails.
  virtual Value RunBytecodeOsrCode(CallTarget& target, InstalledCode& code, Frame& osr_frame);
  // The target as the compilation trace names it ("opt osr disabled <it>|...").
  virtual std::string TraceName(const CallTarget& target) { return target.name(); }
};

}  // namespace morel::osr

#endif  // MOREL_OSR_OSR_HOST_H_
