#include "engine/runtime/compile_queue.h"

#include <pthread.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/time/clock.h"
#include "nodes/heap.h"

namespace morel::runtime {

int CompileQueue::ThreadCount(int option, int cpus) {
  cpus = std::max(cpus, 1);
  if (option > 0) return option;
  if (option == 0) return cpus >= 4 ? 2 : 1;
  int log2_cpus = static_cast<int>(std::log2(cpus));
  int threads = cpus / 4 + static_cast<int>(std::log2(std::max(log2_cpus, 1)));
  return std::clamp(threads, 1, 16);
}

CompileQueue::CompileQueue(int threads, CompileFunction compile)
    : thread_count_(std::max(threads, 1)), compile_(std::move(compile)) {}

CompileQueue::~CompileQueue() { Shutdown(); }

bool CompileQueue::Submit(CallTarget& target, int tier,
                          const std::function<void(const QueueState&)>& on_queued,
                          int compiled_tier) {
  std::lock_guard<std::mutex> guard(lock_);
  if (shutting_down_) return false;
  auto queued = [&](const Task& t) { return t.target == &target; };
  auto compiling = [&](const Compiling& c) { return c.target == &target && c.tier >= tier; };
  if (std::any_of(queue_.begin(), queue_.end(), queued) ||
      std::any_of(compiling_.begin(), compiling_.end(), compiling)) {
    return false;
  }
  absl::Time now = absl::Now();
  queue_.push_back(Task{&target, tier, compiled_tier, now, target.call_and_loop_count(), now});
  if (threads_.empty()) {
    for (int i = 0; i < thread_count_; ++i) threads_.emplace_back([this, i] { Run(i + 1); });
  }
  if (on_queued) {
    on_queued(QueueState{static_cast<int>(queue_.size()), +1,
                         static_cast<double>(queue_.size()) / thread_count_, 0});
  }
  wake_.notify_one();
  return true;
}

bool CompileQueue::Cancel(CallTarget& target, QueueState* state, int* tier) {
  std::lock_guard<std::mutex> guard(lock_);
  auto it = std::find_if(queue_.begin(), queue_.end(),
                         [&](const Task& t) { return t.target == &target; });
  if (it == queue_.end()) return false;
  int64_t waited = absl::ToInt64Microseconds(absl::Now() - it->queued_at);
  if (tier != nullptr) *tier = it->tier;
  queue_.erase(it);
  if (state != nullptr) {
    *state = QueueState{static_cast<int>(queue_.size()), -1,
                        static_cast<double>(queue_.size()) / thread_count_, waited};
  }
  if (queue_.empty() && compiling_.empty()) idle_.notify_all();
  return true;
}

bool CompileQueue::IsActive(const CallTarget& target) const {
  std::lock_guard<std::mutex> guard(lock_);
  return std::any_of(queue_.begin(), queue_.end(),
                     [&](const Task& t) { return t.target == &target; }) ||
         std::any_of(compiling_.begin(), compiling_.end(),
                     [&](const Compiling& c) { return c.target == &target; });
}

void CompileQueue::WaitUntilIdle() {
  std::unique_lock<std::mutex> guard(lock_);
  idle_.wait(guard, [this] { return queue_.empty() && compiling_.empty(); });
}

void CompileQueue::Shutdown() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> guard(lock_);
    shutting_down_ = true;
    queue_.clear();
    threads.swap(threads_);
    wake_.notify_all();
  }
  for (std::thread& thread : threads) thread.join();
  std::lock_guard<std::mutex> guard(lock_);
  idle_.notify_all();
}

size_t CompileQueue::PickLocked(absl::Time now) {
  size_t best = 0;
  double best_weight = -1;
  for (size_t i = 0; i < queue_.size(); ++i) {
    Task& task = queue_[i];
    int count = task.target->call_and_loop_count();
    double elapsed_ms = absl::ToDoubleMilliseconds(now - task.last_sample);
    if (elapsed_ms >= 1.0) {
      task.rate = std::max(0, count - task.last_count) / elapsed_ms;
      task.last_count = count;
      task.last_sample = now;
    }
    double weight = static_cast<double>(count) * task.rate;
    const Task& current = queue_[best];
    bool better;
    if (task.tier != current.tier) {
      better = task.tier < current.tier;  // the first tier goes first
    } else if (task.compiled_tier != current.compiled_tier) {
      better = task.compiled_tier > current.compiled_tier;
    } else {
      better = weight > best_weight;
    }
    if (i == 0 || better) {
      best = i;
      best_weight = weight;
    }
  }
  return best;
}

void CompileQueue::Run(int index) {
  std::string name = "MorelCompiler-" + std::to_string(index);
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
  // Partial evaluation reads (and may allocate) guest objects.
  heap::ScopedThreadRegistration registration;
  std::unique_lock<std::mutex> guard(lock_);
  while (true) {
    // An idle compiler thread is not stopped by collections.
    heap::WhileBlocked(
        [&] { wake_.wait(guard, [this] { return shutting_down_ || !queue_.empty(); }); });
    if (shutting_down_) return;
    absl::Time now = absl::Now();
    size_t picked = PickLocked(now);
    Task task = queue_[picked];
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(picked));
    compiling_.push_back(Compiling{task.target, task.tier});
    Start start{task.target,
                task.tier,
                static_cast<int64_t>(static_cast<double>(task.target->call_and_loop_count()) *
                                     task.rate),
                task.rate,
                QueueState{static_cast<int>(queue_.size()), -1,
                           static_cast<double>(queue_.size()) / thread_count_,
                           absl::ToInt64Microseconds(now - task.queued_at)}};
    guard.unlock();
    compile_(start);
    guard.lock();
    // The first entry of this task's (target, tier): a target may compile at
    // two tiers at once (Submit).
    compiling_.erase(std::find_if(compiling_.begin(), compiling_.end(), [&](const Compiling& c) {
      return c.target == task.target && c.tier == task.tier;
    }));
    if (queue_.empty() && compiling_.empty()) idle_.notify_all();
  }
}

}  // namespace morel::runtime
