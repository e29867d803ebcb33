#ifndef MOREL_ENGINE_RUNTIME_OSR_H_
#define MOREL_ENGINE_RUNTIME_OSR_H_

// On-stack replacement in the engine (the policy half of osr/; Engine's
// PollOSR and OsrPollMask live in osr.cc).
//
// Policy (Truffle's OptimizedOSRLoopNode, truffle_reference §3.1/§3.3):
//  - LoopNode polls every 1024 iterations of one loop entry (every
//    iteration with AlwaysOSR); once the entry ran more than
//    OSRCompilationThreshold iterations (0 with AlwaysOSR), the engine
//    creates the loop's OSR call target (osr::OsrRootNode; excluded from
//    splitting and from call-count compilation) and requests its
//    compilation — on the compile queue, or at once without background
//    compilation. The loop keeps interpreting and polls again.
//  - When the OSR target has code, the poll runs it on the activation's
//    frame: the code loads the frame's slots, runs the rest of the loop,
//    stores the slots back before each call that may run guest code (stack
//    walks see current values) and at the exit, and its result is the
//    loop's status.
//  - A deoptimization inside OSR code resumes the interpreter on the same
//    frame (ResumeInInterpreter finds it through the OsrActivation below),
//    which finishes the loop; the code is dropped, and a later poll may
//    compile the loop again, at most OSRMaxCompilationReAttempts more
//    times. A permanent compilation failure disables OSR for the loop.
//  - A node replaced in the function's tree drops its loops' OSR code.

#include "nodes/frame.h"

namespace morel::runtime {

// The OSR code running on this thread (innermost), while it runs.
struct OsrActivation {
  Frame* frame;               // the activation whose loop the code runs
  bool deoptimized = false;   // the interpreter finished the loop on `frame`
  OsrActivation* previous = nullptr;
};
OsrActivation* CurrentOsrActivation();

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_OSR_H_
