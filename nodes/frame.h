#ifndef MOREL_NODES_FRAME_H_
#define MOREL_NODES_FRAME_H_

// FrameDescriptor: the layout of a root's activation frame, with a kind per
// slot (long, boolean, object, illegal) that the interpreter generalizes
// monotonically as it writes values (Truffle's FrameSlotKind) and the
// compiler reads as a compilation-final speculation.
//
// Frame: one activation. Its slots live on the native stack of the call
// (CallTarget::Call), or on the thread's interpreter stack for a call that a
// bytecode switch runs in its own loop (nodes/bytecode/interpreter_stack.h);
// the garbage collector scans both. Frames are linked to their caller for
// stack walks (SL's stacktrace()).

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "nodes/directives.h"
#include "nodes/value.h"

namespace morel {

class RootNode;
namespace bytecode {
class InterpreterStack;
}  // namespace bytecode

enum class FrameSlotKind : uint8_t {
  kIllegal,  // never written
  kLong,
  kBoolean,
  kObject,   // any value
};

const char* FrameSlotKindName(FrameSlotKind kind);

class FrameDescriptor {
 public:
  FrameDescriptor() = default;
  FrameDescriptor(const FrameDescriptor&) = delete;
  FrameDescriptor& operator=(const FrameDescriptor&) = delete;

  // Adds a slot. Only while the descriptor is being built, before any frame
  // uses it (the kinds array may move).
  int AddSlot(std::string name);
  // A word of its own: read on every call (the frame's size) and every
  // bytecode activation (its operand stack's base).
  int size() const { return size_; }
  const std::string& name(int slot) const { return names_[slot]; }
  FrameSlotKind kind(int slot) const {
    return kinds_[slot].load(std::memory_order_acquire);
  }
  // Records that `value` was written to `slot`: the kind moves from illegal
  // to the value's kind, and to object on any mismatch. Never narrows.
  void RecordWrite(int slot, const Value& value) const {
    FrameSlotKind wanted = KindOf(value);
    FrameSlotKind current = kind(slot);
    if (current == wanted || current == FrameSlotKind::kObject) return;
    Generalize(slot, wanted);
  }

  // A fresh descriptor with the same slot names and illegal kinds (for
  // uninitialized copies of a root).
  std::unique_ptr<FrameDescriptor> CopyUninitialized() const;

  static FrameSlotKind KindOf(const Value& value) {
    if (value.IsLong()) return FrameSlotKind::kLong;
    if (value.IsBoolean()) return FrameSlotKind::kBoolean;
    return FrameSlotKind::kObject;
  }

 private:
  // Out of line and cold (a slot's kind changes at most twice).
  MOREL_SLOW_PATH void Generalize(int slot, FrameSlotKind wanted) const;

  std::vector<std::string> names_;
  // One kind per slot, contiguous: RecordWrite is on the interpreter's hot
  // path.
  std::unique_ptr<std::atomic<FrameSlotKind>[]> kinds_;
  int capacity_ = 0;
  int size_ = 0;  // names_.size()
};

class Frame {
 public:
  Frame(const FrameDescriptor* descriptor, Value* slots,
        absl::Span<const Value> arguments, RootNode* root, Frame* caller)
      : descriptor_(descriptor),
        slots_(slots),
        arguments_(arguments),
        root_(root),
        caller_(caller) {}

  Value Get(int slot) const { return slots_[slot]; }
  // The slots themselves, for compiled code that runs on this frame (OSR,
  // engine/runtime/osr.h). The storage has descriptor.size() + 1 Values:
  // the last one is scratch for compiled code (an OSR loop's return value);
  // everything that creates a frame (CallTarget::Call, deoptimization)
  // allocates it.
  Value* slot_storage() const { return slots_; }
  void Set(int slot, Value value) { slots_[slot] = value; }
  bool IsInitialized(int slot) const { return !slots_[slot].IsIllegal(); }

  absl::Span<const Value> arguments() const { return arguments_; }
  // A register for the activation's result, for languages whose statements
  // signal "return" through a status instead of unwinding.
  Value return_value() const { return return_value_; }
  void set_return_value(Value value) { return_value_ = value; }
  const FrameDescriptor& descriptor() const { return *descriptor_; }
  RootNode* root() const { return root_; }
  // The frame of the calling guest function, or null at the bottom.
  Frame* caller() const { return caller_; }

  // The innermost frame executing on this thread, or null.
  static Frame* Current() { return current_; }

 private:
  friend class FrameScope;
  // Switches frames at the calls and returns a bytecode switch runs in its
  // own loop, where a FrameScope cannot nest.
  friend class bytecode::InterpreterStack;
  // Defined here, constant-initialized: other files read it without a call
  // to a thread_local wrapper (a guest call pushes and pops it).
  static inline thread_local Frame* current_ = nullptr;
  const FrameDescriptor* descriptor_;
  Value* slots_;
  absl::Span<const Value> arguments_;
  RootNode* root_;
  Frame* caller_;
  Value return_value_ = Value::Illegal();
};

// Makes a frame the current one for its lifetime.
class FrameScope {
 public:
  explicit FrameScope(Frame* frame) : previous_(Frame::current_) { Frame::current_ = frame; }
  ~FrameScope() { Frame::current_ = previous_; }
  FrameScope(const FrameScope&) = delete;
  FrameScope& operator=(const FrameScope&) = delete;

 private:
  Frame* previous_;
};

}  // namespace morel

#endif  // MOREL_NODES_FRAME_H_
