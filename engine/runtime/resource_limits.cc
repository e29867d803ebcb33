#include "engine/runtime/resource_limits.h"

#include <pthread.h>
#include <time.h>

#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/config/option_registry.h"
#include "nodes/guest_error.h"
#include "nodes/heap.h"

namespace morel::runtime {
namespace {

// GraalVM's MaxCPUTimeCheckInterval default.
constexpr std::chrono::milliseconds kCpuTimeCheckInterval{10};

int64_t CpuTimeMillis(clockid_t clock) {
  struct timespec now;
  if (clock_gettime(clock, &now) != 0) return -1;
  return static_cast<int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ResourceLimits>> ResourceLimits::Create(
    const config::EngineConfig& config, NodeRuntime& runtime) {
  // Only set options can be out of range. An engine with every default
  // skips the registry (building it builds the descriptors, a millisecond
  // of every process's start-up).
  if (config.ByteSizeLong() != 0) {
    if (absl::Status valid = config::OptionRegistry::Get().Validate(config); !valid.ok()) {
      return valid;
    }
  }
  std::unique_ptr<ResourceLimits> limits(new ResourceLimits(runtime));
  // Validated: the quantities parse.
  using config::OptionSpec;
  limits->max_cpu_time_ms_ =
      config::ParseQuantity(OptionSpec::DURATION, config.max_cpu_time()).value_or(-1);
  limits->max_cpu_time_text_ = config.max_cpu_time();
  limits->max_heap_bytes_ =
      config::ParseQuantity(OptionSpec::BYTE_SIZE, config.max_heap_memory()).value_or(-1);
  limits->max_heap_text_ = config.max_heap_memory();
  limits->max_output_bytes_ =
      config::ParseQuantity(OptionSpec::BYTE_SIZE, config.max_output_stream_size()).value_or(-1);
  limits->max_output_text_ = config.max_output_stream_size();
  limits->max_ast_depth_ = config.max_ast_depth();
  if (limits->max_heap_bytes_ >= 0) {
    if (!heap::SetHeapLimit(static_cast<size_t>(limits->max_heap_bytes_), &OnHeapLimitExceeded,
                            limits.get())) {
      return absl::FailedPreconditionError(
          "option engine.MaxHeapMemory: another engine of this process already limits the "
          "heap (the collector's heap is shared; one limit at a time)");
    }
    limits->heap_limit_set_ = true;
  }
  if (limits->max_cpu_time_ms_ >= 0) {
    clockid_t clock;
    if (pthread_getcpuclockid(pthread_self(), &clock) != 0) {
      return absl::InternalError("option engine.MaxCPUTime: no CPU clock for this thread");
    }
    ResourceLimits* self = limits.get();
    limits->watchdog_ = std::thread([self, clock] { self->Watch(clock); });
  }
  return limits;
}

ResourceLimits::~ResourceLimits() { Stop(); }

void ResourceLimits::Stop() {
  {
    std::lock_guard<std::mutex> guard(lock_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (watchdog_.joinable()) watchdog_.join();
  if (heap_limit_set_) {
    heap::ClearHeapLimit(this);
    heap_limit_set_ = false;
  }
}

void ResourceLimits::Watch(clockid_t guest_clock) {
  std::unique_lock<std::mutex> guard(lock_);
  while (!stopping_) {
    const int64_t used = CpuTimeMillis(guest_clock);
    if (used >= max_cpu_time_ms_) {
      guard.unlock();
      Cancel(absl::StrCat("Maximum CPU time limit of ", max_cpu_time_text_, " exceeded."));
      return;
    }
    wake_.wait_for(guard, kCpuTimeCheckInterval);
  }
}

void ResourceLimits::OnHeapLimitExceeded(void* self) {
  auto* limits = static_cast<ResourceLimits*>(self);
  limits->Cancel(
      absl::StrCat("Maximum heap memory limit of ", limits->max_heap_text_, " exceeded."));
}

void ResourceLimits::Cancel(const std::string& message) {
  {
    std::lock_guard<std::mutex> guard(lock_);
    if (cancellation_.empty()) cancellation_ = message;
  }
  runtime_.RequestSafepoint();
}

std::string ResourceLimits::cancellation() const {
  std::lock_guard<std::mutex> guard(lock_);
  return cancellation_;
}

void ResourceLimits::Raise(const std::string& message) {
  Cancel(message);
  throw ResourceLimitError(cancellation());
}

int ResourceLimits::TreeDepth(Node& node) {
  int deepest = 0;
  std::vector<std::pair<Node*, int>> pending = {{&node, 1}};
  while (!pending.empty()) {
    auto [current, depth] = pending.back();
    pending.pop_back();
    if (depth > deepest) deepest = depth;
    current->ForEachChild([&pending, depth = depth](ChildSlot& slot) {
      if (Node* child = slot.get()) pending.push_back({child, depth + 1});
    });
  }
  return deepest;
}

void ResourceLimits::CheckASTDepth(RootNode& root) {
  if (max_ast_depth_ <= 0) return;
  const int depth = TreeDepth(root);
  if (depth > max_ast_depth_) {
    Raise(absl::StrCat("AST depth limit of ", max_ast_depth_, " exceeded for ", root.name(),
                       " (depth ", depth, ")."));
  }
}

void ResourceLimits::ChargeOutput(size_t bytes) {
  if (max_output_bytes_ < 0) return;
  if (output_bytes_ + static_cast<int64_t>(bytes) > max_output_bytes_) {
    Raise(absl::StrCat("Maximum output stream size of ", max_output_text_, " exceeded."));
  }
  output_bytes_ += static_cast<int64_t>(bytes);
}

}  // namespace morel::runtime
