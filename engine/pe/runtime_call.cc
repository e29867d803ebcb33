#include "engine/pe/runtime_call.h"

#include <atomic>
#include <mutex>

#include "absl/container/flat_hash_map.h"

namespace morel::pe {
namespace {

std::mutex& InvokersLock() {
  static std::mutex* lock = new std::mutex();
  return *lock;
}
absl::flat_hash_map<const ir::RuntimeFunction*, RuntimeInvoker>& Invokers() {
  static auto* invokers =
      new absl::flat_hash_map<const ir::RuntimeFunction*, RuntimeInvoker>();
  return *invokers;
}

}  // namespace

namespace {
std::atomic<const void*> guest_call_entry{nullptr};
}  // namespace

void SetGuestCallEntry(const void* entry) {
  guest_call_entry.store(entry, std::memory_order_release);
}
void SetGuestCallEntryIfUnset(const void* entry) {
  const void* expected = nullptr;
  guest_call_entry.compare_exchange_strong(expected, entry, std::memory_order_acq_rel);
}
const void* GuestCallEntry() { return guest_call_entry.load(std::memory_order_acquire); }

RuntimeInvoker FindInvoker(const ir::RuntimeFunction* function) {
  std::lock_guard<std::mutex> guard(InvokersLock());
  auto it = Invokers().find(function);
  return it == Invokers().end() ? nullptr : it->second;
}

void RegisterInvoker(const ir::RuntimeFunction* function, RuntimeInvoker invoker) {
  std::lock_guard<std::mutex> guard(InvokersLock());
  Invokers()[function] = invoker;
}

}  // namespace morel::pe
