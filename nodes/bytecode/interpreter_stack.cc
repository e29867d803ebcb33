#include "nodes/bytecode/interpreter_stack.h"

#include <cstdint>

#include "base/check.h"
#include "nodes/heap.h"

namespace morel::bytecode {

InterpreterStack& InterpreterStack::ForThisThread() {
  thread_local InterpreterStack stack;
  return stack;
}

InterpreterStack::InterpreterStack()
    : base_(static_cast<char*>(heap::AllocateRoot(kBytes))), top_(base_), limit_(base_ + kBytes) {
  MOREL_CHECK(reinterpret_cast<uintptr_t>(base_) % kAlignment == 0);
}

InterpreterStack::~InterpreterStack() { heap::FreeRoot(base_); }

}  // namespace morel::bytecode
