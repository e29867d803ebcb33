#ifndef MOREL_NODES_BYTECODE_INTERPRETER_STACK_H_
#define MOREL_NODES_BYTECODE_INTERPRETER_STACK_H_

// Each thread's interpreter stack: the frames of the calls that a bytecode
// switch runs in its own loop (bytecode_switch.h), where a native call
// would otherwise set up each callee's frame (CallTarget::Call) and enter
// the switch again. A call pushes its record and the callee's frame storage
// here; its return pops them. The collector scans the stack as a root.
//
// The stack has a fixed size. A call whose frame does not fit is a native
// call, as every call is when the callee is not a root of the same switch:
// deep recursion then goes on on the native stack, with its stack check.

#include <cstddef>

#include "nodes/frame.h"

namespace morel::bytecode {

class InterpreterStack {
 public:
  // Room for a few hundred activations of small functions (an SL function
  // of a few locals takes about 200 bytes). The collector scans all of it
  // at every collection (root memory: heap::AllocateRoot), about 20 us.
  static constexpr size_t kBytes = 64 * 1024;
  // Frame storage starts at this alignment.
  static constexpr size_t kAlignment = 16;

  // The calling thread's, allocated at its first use.
  static InterpreterStack& ForThisThread();

  bool HasRoom(size_t bytes) const { return bytes <= static_cast<size_t>(limit_ - top_); }
  // Reserves `bytes` (a multiple of kAlignment; HasRoom) on top.
  void* Push(size_t bytes) {
    char* const block = top_;
    top_ += bytes;
    return block;
  }
  // Pops `block` (what Push returned) and everything pushed after it.
  void PopTo(void* block) { top_ = static_cast<char*>(block); }
  // Bytes in use.
  size_t used() const { return static_cast<size_t>(top_ - base_); }
  bool Contains(const void* address) const {
    return address >= static_cast<const void*>(base_) && address < static_cast<const void*>(top_);
  }
  // The thread's innermost frame (Frame::Current) becomes `frame`: at a
  // call and a return that the switch runs in its loop.
  static void SetCurrentFrame(Frame* frame) { Frame::current_ = frame; }

  InterpreterStack(const InterpreterStack&) = delete;
  InterpreterStack& operator=(const InterpreterStack&) = delete;

 private:
  InterpreterStack();
  ~InterpreterStack();

  char* base_;
  char* top_;
  char* limit_;
};

}  // namespace morel::bytecode

#endif  // MOREL_NODES_BYTECODE_INTERPRETER_STACK_H_
