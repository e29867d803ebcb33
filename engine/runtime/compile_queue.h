#ifndef MOREL_ENGINE_RUNTIME_COMPILE_QUEUE_H_
#define MOREL_ENGINE_RUNTIME_COMPILE_QUEUE_H_

// CompileQueue: background compilation (Truffle's BackgroundCompileQueue
// with its traversing queue, truffle_reference §4.4–4.5).
//
// Call targets that reach their threshold are submitted; `threads` compiler
// threads take the task with the highest priority and run the engine's
// compile function on it while the interpreter keeps running.
//
// Priority, as in Truffle's TraversingBlockingQueue (truffle_reference
// §4.4): each poll scans every queued task and picks
//   1. a first-tier task over a last-tier one (tier 1 before tier 2: code
//      early for many targets beats better code for a few);
//   2. among tasks of one tier, the target compiled before at the higher
//      tier (`compiled_tier`: e.g. one whose last-tier code was
//      invalidated, and which is known to be hot);
//   3. then the higher weight = callAndLoopCount × rate, where rate is the
//      growth of callAndLoopCount per millisecond since the task was last
//      sampled (re-sampled at most once per millisecond). A target the
//      interpreter (or first-tier code) keeps calling therefore goes first;
//      among idle ones, the most used.
// Ties go to the oldest task.
//
// Thread safety: every method may be called from any thread. Tasks hold raw
// CallTarget pointers: the owner must call Shutdown() before its targets
// die. Compiler threads are registered with the collector (nodes/heap.h),
// so compilation may read and allocate guest objects.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "nodes/call_target.h"

namespace morel::runtime {

class CompileQueue {
 public:
  // What a trace line says about the queue at an event (Truffle's
  // "Queue: Size %4d Change %c%-2d Load %5.2f Time %5dus").
  struct QueueState {
    int size = 0;         // tasks queued after the event
    int change = 0;       // +1 queued, -1 started or dequeued
    double load = 0;      // size / compiler threads
    int64_t time_us = 0;  // how long the task had waited (0 when queued)
  };
  struct Start {
    CallTarget* target;
    int tier;
    int64_t priority;  // the weight the task won with
    double rate;       // its count growth per millisecond
    QueueState queue;
  };
  using CompileFunction = std::function<void(const Start&)>;

  // `threads` >= 1 compiler threads, started lazily at the first Submit.
  CompileQueue(int threads, CompileFunction compile);
  ~CompileQueue();  // Shutdown()

  // Queues `target` for a compilation at `tier` (1 first, 2 last) unless it
  // is queued, or being compiled at `tier` or higher (a last-tier request
  // from first-tier code may come while the first-tier compilation that
  // installed that code is finishing); returns false if it was not queued.
  // `on_queued` (if any) runs with the queue's state under the queue's
  // lock, before any compiler thread can start the task: a trace's
  // "queued" line always precedes its "start" line. `compiled_tier`: the
  // highest tier `target` was compiled at before (0: never), for the
  // priority.
  bool Submit(CallTarget& target, int tier,
              const std::function<void(const QueueState&)>& on_queued = nullptr,
              int compiled_tier = 0);
  // Removes a queued (not yet started) task; false if there was none.
  // `tier`, if given, receives the removed task's tier.
  bool Cancel(CallTarget& target, QueueState* state, int* tier = nullptr);
  // True while `target` is queued or compiling.
  bool IsActive(const CallTarget& target) const;

  // Blocks until nothing is queued or compiling (tests; waiting embedders).
  void WaitUntilIdle();
  // Drops the queued tasks, lets running compilations finish, and joins
  // the threads. Idempotent.
  void Shutdown();

  int thread_count() const { return thread_count_; }

  // Truffle's CompilerThreads rule for `option` on a machine with `cpus`:
  // -1: min(cpus/4 + log2(max(log2(cpus), 1)), 16), at least 1;
  //  0: 1, or 2 with 4 or more cpus; otherwise `option`.
  static int ThreadCount(int option, int cpus);

 private:
  struct Task {
    CallTarget* target;
    int tier;
    int compiled_tier;
    absl::Time queued_at;
    int last_count;
    absl::Time last_sample;
    double rate = 0;
  };

  void Run(int index);
  // The index of the task to run next; lock_ held, queue_ not empty.
  size_t PickLocked(absl::Time now);

  const int thread_count_;
  CompileFunction compile_;

  mutable std::mutex lock_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::vector<Task> queue_;
  struct Compiling {
    const CallTarget* target;
    int tier;
  };
  std::vector<Compiling> compiling_;
  bool shutting_down_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_COMPILE_QUEUE_H_
