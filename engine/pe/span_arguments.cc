#include "engine/pe/span_arguments.h"

#include <algorithm>
#include <vector>

#include "base/check.h"
#include "nodes/heap.h"

namespace morel::pe {
namespace {

// A chunk's size in Values unless one reservation needs more.
constexpr int64_t kChunkValues = 4096;

struct Chunk {
  Value* slots;
  int64_t capacity;
  int64_t used;
};

// This thread's argument stack: chunks_[0..top_] are in use (the last one
// partly); chunks above top_ are kept for reuse.
class ArgumentStack {
 public:
  ~ArgumentStack() {
    for (Chunk& chunk : chunks_) heap::FreeRoot(chunk.slots);
  }

  Value* Reserve(int64_t count) {
    if (count <= 0) return nullptr;
    if (top_ < 0 || chunks_[top_].used + count > chunks_[top_].capacity) {
      // Move to the next chunk (never moving slots already handed out).
      ++top_;
      if (top_ == static_cast<int>(chunks_.size()) || chunks_[top_].capacity < count) {
        if (top_ < static_cast<int>(chunks_.size())) {
          heap::FreeRoot(chunks_[top_].slots);
          chunks_.erase(chunks_.begin() + top_);
        }
        int64_t capacity = std::max(kChunkValues, count);
        auto* slots = static_cast<Value*>(heap::AllocateRoot(sizeof(Value) * capacity));
        MOREL_CHECK(slots != nullptr);
        chunks_.insert(chunks_.begin() + top_, Chunk{slots, capacity, 0});
      }
    }
    Chunk& chunk = chunks_[top_];
    Value* slots = chunk.slots + chunk.used;
    chunk.used += count;
    reserved_ += count;
    return slots;
  }

  void Release(Value* slots, int64_t count) {
    if (count <= 0) return;
    Chunk& chunk = chunks_[top_];
    // LIFO: the most recent reservation ends at the top of the top chunk.
    MOREL_CHECK_MSG(slots + count == chunk.slots + chunk.used,
                    "span arguments released out of order");
    std::fill_n(slots, count, Value{0, kIllegalTag});
    chunk.used -= count;
    reserved_ -= count;
    if (chunk.used == 0 && top_ > 0) --top_;
  }

  int64_t reserved() const { return reserved_; }

 private:
  std::vector<Chunk> chunks_;
  int top_ = -1;
  int64_t reserved_ = 0;
};

ArgumentStack& Stack() {
  thread_local ArgumentStack stack;
  return stack;
}

}  // namespace

Value* ReserveSpanArguments(int64_t count) { return Stack().Reserve(count); }
void ReleaseSpanArguments(Value* slots, int64_t count) { Stack().Release(slots, count); }
int64_t ReservedSpanArguments() { return Stack().reserved(); }

}  // namespace morel::pe
