#ifndef MOREL_ENGINE_IR_ALIAS_CLASS_H_
#define MOREL_ENGINE_IR_ALIAS_CLASS_H_

// AliasClass: the memory region a `load`/`store` accesses, for alias
// analysis (B3's HeapRange, Cranelift's memflags, LLVM's TBAA, reduced to
// disjoint named regions). An instruction's class is a `const AliasClass*`:
//   - nullptr, "unknown" (the default): may access any memory;
//   - a named class, e.g. "SLObject+0" (a field of a C++ class: class name
//     and byte offset; engine/pe) or "value slots" (elements of `Value`
//     arrays): the claim that no byte this access touches is ever accessed
//     by an access of ANOTHER named class. Two accesses of the same class
//     may overlap (different SSA pointers may be equal).
// The claim is the emitter's promise: a wrong one lets load_elim keep a
// stale value. Emit a class only where the region is truly separate; when
// in doubt, leave the access unknown.
//
// Classes are interned process-wide by name: AliasClass::Get returns the
// same pointer for the same name, so classes compare as pointers, the text
// form (`load.T p, off, alias "name"`, printer.h) round-trips, and two
// functions (or two threads) naming a class agree. Interned classes live
// for the whole process (there are few: one per name).

#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace morel::ir {

class AliasClass {
 public:
  AliasClass(const AliasClass&) = delete;
  AliasClass& operator=(const AliasClass&) = delete;

  // The class named `name` (non-empty; CHECK), created on first use.
  // Thread-safe.
  static const AliasClass* Get(absl::string_view name);

  const std::string& name() const { return name_; }

 private:
  explicit AliasClass(std::string name) : name_(std::move(name)) {}
  std::string name_;
};

// Whether an access of class `a` and one of class `b` may touch the same
// memory: unknown (nullptr) may alias anything, a class aliases itself,
// two different named classes never alias.
inline bool MayAlias(const AliasClass* a, const AliasClass* b) {
  return a == nullptr || b == nullptr || a == b;
}

// The name of `c`, "unknown" for nullptr (for messages; the text form
// prints nothing for unknown).
inline absl::string_view AliasClassName(const AliasClass* c) {
  return c == nullptr ? absl::string_view("unknown") : absl::string_view(c->name());
}

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_ALIAS_CLASS_H_
