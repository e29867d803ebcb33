#ifndef MOREL_NODES_RESUME_H_
#define MOREL_NODES_RESUME_H_

// Resuming the interpreter in the middle of an activation: the target of
// deoptimization (DESIGN §5).
//
// Compiled code that fails a speculation stops at a point inside some node's
// evaluation, after side effects may already have happened (calls, stores,
// output). The interpreter must continue from exactly there, with the values
// computed so far, and never evaluate anything twice. A frame state
// therefore describes the interpreter's position as a path of ResumeEntry
// from the root node to the innermost node being evaluated:
//
//   entry            meaning
//   innermost        `node` has evaluated its children [0, next_child), with
//                    outcomes `done`; it continues with child `next_child`
//                    (== its child count: perform the node's own operation)
//   every other one  `node` is evaluating child `next_child` (the next entry
//                    of the path); children before it produced `done`
//
// ResumeActivation() resumes the innermost node, then hands each result to
// its parent entry as the outcome of child `next_child`, up to the root,
// whose outcome is the activation's result. Locals are already in the Frame.
//
// A node that can contain a deoptimization point implements Node::Resume;
// the numbering of its children is part of its contract with the partial
// evaluator (which emits the paths) and is documented on each node class.
//
// After its own operation: a node whose operation calls guest code (a call
// node) also resumes with next_child == its child count + 1, where the last
// done outcome is the operation's result; it returns that result without
// performing the operation again. Compiled code uses that point when it
// finds itself invalidated after a call (lazy invalidation, engine/pe).

#include <vector>

#include "absl/types/span.h"
#include "nodes/frame.h"
#include "nodes/heap.h"
#include "nodes/value.h"

namespace morel {

class Node;

// What a node produced: a value (expressions) or a status (statements and
// loops, whose meaning the language defines), or both.
struct Outcome {
  Value value = Value::Illegal();
  int status = 0;

  static Outcome OfValue(Value v) { return Outcome{v, 0}; }
  static Outcome OfStatus(int s) { return Outcome{Value::Illegal(), s}; }
};

struct ResumeEntry {
  Node* node;
  int next_child;
  // A collector root: outer entries' values stay in use while inner nodes
  // run (and allocate).
  heap::TracedVector<Outcome> done;
};

// Runs the rest of the activation described by `path` (root first) in
// `frame`; returns the root's outcome.
Outcome ResumeActivation(Frame& frame, absl::Span<const ResumeEntry> path);

}  // namespace morel

#endif  // MOREL_NODES_RESUME_H_
