#ifndef MOREL_ENGINE_RUNTIME_RESOURCE_LIMITS_H_
#define MOREL_ENGINE_RUNTIME_RESOURCE_LIMITS_H_

// ResourceLimits: an engine's sandbox limits for untrusted guest code,
// GraalVM's sandbox options (engine_config.proto, "sandbox" section):
//   MaxCPUTime          a watchdog thread samples the guest thread's CPU
//                       clock every 10 ms and cancels the guest;
//   MaxHeapMemory       the collector's heap may grow by this much
//                       (heap::SetHeapLimit); an allocation beyond it
//                       cancels the guest;
//   MaxStackFrames      counted by CallTarget::Call (NodeRuntime);
//   MaxASTDepth         checked when a call target is created;
//   MaxOutputStreamSize charged by the language's output builtins.
// Cancelling records the first limit's message and requests a safepoint
// (NodeRuntime::RequestSafepoint): the guest thread throws a
// ResourceLimitError at its next loop back edge or call, interpreted or
// compiled, and again at every later one. Nothing else in the process is
// affected: the watchdog and the heap limit end with the engine.

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "engine/config/engine_config.pb.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"

namespace morel::runtime {

class ResourceLimits {
 public:
  // Reads the sandbox options of `config`; errors name the option. Starts
  // the watchdog (MaxCPUTime: the CPU clock of the calling thread, which
  // runs the guest) and sets the heap limit. `runtime` outlives this.
  static absl::StatusOr<std::unique_ptr<ResourceLimits>> Create(
      const config::EngineConfig& config, NodeRuntime& runtime);
  // Stop()s.
  ~ResourceLimits();
  ResourceLimits(const ResourceLimits&) = delete;
  ResourceLimits& operator=(const ResourceLimits&) = delete;

  // Stops the watchdog and removes the heap limit. Idempotent.
  void Stop();

  // Cancels the guest with `message` (the first cancellation's message is
  // kept) and requests a safepoint. Any thread.
  void Cancel(const std::string& message);
  // The cancellation's message; empty while not cancelled.
  std::string cancellation() const;
  // Cancel(message), then throws the (first) cancellation's ResourceLimitError.
  [[noreturn]] void Raise(const std::string& message);

  // MaxASTDepth: raises if `root`'s tree is deeper (the root is depth 1).
  // Walks the tree with an explicit stack (any depth is safe).
  void CheckASTDepth(RootNode& root);
  // The depth of `node`'s tree (1 for a leaf).
  static int TreeDepth(Node& node);

  // MaxOutputStreamSize: accounts for `bytes` about to be written to the
  // guest's standard output; raises, before anything is written, if they
  // would exceed the limit.
  void ChargeOutput(size_t bytes);

  // The parsed limits: -1 (or 0 for the int options) is none.
  int64_t max_cpu_time_ms() const { return max_cpu_time_ms_; }
  int64_t max_heap_bytes() const { return max_heap_bytes_; }
  int max_ast_depth() const { return max_ast_depth_; }
  int64_t max_output_bytes() const { return max_output_bytes_; }

 private:
  explicit ResourceLimits(NodeRuntime& runtime) : runtime_(runtime) {}
  void Watch(clockid_t guest_clock);
  static void OnHeapLimitExceeded(void* self);

  NodeRuntime& runtime_;
  std::string max_cpu_time_text_;
  std::string max_heap_text_;
  std::string max_output_text_;
  int64_t max_cpu_time_ms_ = -1;
  int64_t max_heap_bytes_ = -1;
  int max_ast_depth_ = 0;
  int64_t max_output_bytes_ = -1;

  mutable std::mutex lock_;
  std::string cancellation_;  // guarded by lock_
  bool stopping_ = false;     // guarded by lock_
  std::condition_variable wake_;
  std::thread watchdog_;
  bool heap_limit_set_ = false;
  int64_t output_bytes_ = 0;  // the guest thread's
};

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_RESOURCE_LIMITS_H_
