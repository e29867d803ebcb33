#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_FUNCTION_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_FUNCTION_H_

// SL function values and the global function registry (sl_spec §6.1, §10).
//
// There is exactly one SLFunction per name and context. Looking a name up
// never fails: an unknown name gets an undefined placeholder that a later
// definition fills in, so every reference sees redefinitions. Functions
// are root-allocated: they live as long as the registry.
//
// Two ways a context's code names its functions (sl_shared_code.h):
//   single context  a function literal is the context's SLFunction itself,
//                   a constant of the AST and of compiled code;
//   shared code     the AST and its compiled code serve every context of
//                   an engine: a literal is an id of FunctionIds, an index
//                   into the function table of the context running now
//                   (FunctionIds::current_table()).

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "languages/sl/runtime/values.h"
#include "nodes/assumption.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"
#include "nodes/value.h"

namespace morel::sl {

class SLFunction : public heap::RootAllocated {
 public:
  explicit SLFunction(std::string name)
      : name_(std::move(name)),
        call_target_stable_(name_ + " call target stable",
                            CyclicAssumption::Generations::kKeepReferenced) {}

  const std::string& name() const { return name_; }
  // The current code, or null while the function is undefined.
  CallTarget* call_target() const {
    return call_target_.load(std::memory_order_acquire);
  }
  // Defines or redefines the function. A redefinition invalidates the
  // "call target stable" assumption (after the new target is visible), so
  // compiled code that calls the old target directly is invalidated, and
  // retires the old target (NodeRuntime::RetireCallTarget: the runtime
  // frees it once nothing can reach it).
  // A registry of shared code does not retire: the targets belong to the
  // shared parse cache, which retires them (sl_shared_code.h).
  void set_call_target(CallTarget* target, bool retire_previous = true);
  // Truffle SL's callTargetStable: valid while call_target() does not
  // change. Compiled direct calls depend on it; read it before reading
  // call_target() (CyclicAssumption's ordering rule). The function keeps
  // only the current generation: a holder keeps the one it read (an inline
  // cache), so a million redefinitions do not keep a million.
  std::shared_ptr<Assumption> call_target_stable() const {
    return call_target_stable_.GetShared();
  }
  Value AsValue() const { return Value::Reference(kFunctionTag, this); }

 private:
  friend struct InvokeIndirect;
  friend struct InvokeDirect;
  std::string name_;
  std::atomic<CallTarget*> call_target_{nullptr};
  // call_target() as a plain field, for compiled code of shared ASTs, whose
  // direct-call guard compares the callee's current target with the cached
  // one (InvokeDirect) -- one load, no assumption. Written with
  // call_target_ by the guest thread, read by guest code only.
  CallTarget* guard_target_ = nullptr;
  // 1 while call_target()'s root writes its caller's frame
  // (RootNode::WritesCallerFrame; helloEqualsWorld), else 0: compiled
  // indirect calls read it with one load instead of a runtime call
  // (InvokeIndirect). set_call_target stores it before the target. Compiled
  // code reads the flag, then CallIndirect the target: a redefinition
  // between the two reads could pair an old flag with a new target, which
  // needs a second guest thread (SL has none).
  int64_t writes_caller_frame_ = 0;
  CyclicAssumption call_target_stable_;
};

class FunctionRegistry;

// Names of functions as small integers, for shared code: one table per
// engine (per shared parse cache), so every context gives a name the same
// id. Each shared registry keeps a table of its functions indexed by id,
// always as long as there are ids (a new id gives every registry an entry,
// an undefined placeholder until defined), and current_table() is the
// table of the registry whose guest code runs now (FunctionRegistry::Scope).
// So a function literal of shared code is two loads in compiled code:
// current_table(), then its entry (SLFunctionLiteralNode). Used by the
// guest thread only (the embedding API's guest lock runs one context's
// guest code at a time).
class FunctionIds {
 public:
  int IdOf(absl::string_view name);
  SLFunction* const* current_table() const { return current_table_; }
  // Truffle's single-context speculation: valid while at most one context
  // has used these ids. Then a literal's function is one object for good,
  // and compiled code may make it a constant (SLFunctionLiteralNode); the
  // second context's registry invalidates it, and the code with it.
  Assumption* single_context() { return &single_context_; }
  // Where compiled code reads current_table() (never null while shared
  // code runs).
  SLFunction* const* const* current_table_address() const { return &current_table_; }

 private:
  friend class FunctionRegistry;
  absl::flat_hash_map<std::string, int> ids_;
  std::vector<std::string> names_;
  std::vector<FunctionRegistry*> registries_;
  FunctionRegistry* current_registry_ = nullptr;
  SLFunction* const* current_table_ = nullptr;
  int registries_made_ = 0;
  Assumption single_context_{"SL single context"};
};

class SLContext;  // sl_context.h; the registry only keeps a pointer

class FunctionRegistry {
 public:
  FunctionRegistry() = default;
  // `ids` non-null: a registry for shared code, which resolves `ids`' ids
  // and never retires a replaced target (the shared cache owns them).
  FunctionRegistry(FunctionIds* ids, SLContext* owner);
  ~FunctionRegistry();
  FunctionRegistry(const FunctionRegistry&) = delete;
  FunctionRegistry& operator=(const FunctionRegistry&) = delete;

  // The registry of the context whose guest code runs on this thread (set
  // by Scope), or null.
  static FunctionRegistry* Current();
  // Makes `registry` current on this thread (and, for a shared registry,
  // its table its FunctionIds' current_table()) for the scope's duration.
  class Scope {
   public:
    explicit Scope(FunctionRegistry* registry);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    FunctionRegistry* registry_;
    FunctionRegistry* previous_;
    FunctionRegistry* previous_shared_ = nullptr;
  };
  SLContext* owner() const { return owner_; }
  bool shared() const { return ids_ != nullptr; }

  // The canonical function named `name`, created undefined if new.
  SLFunction* Lookup(absl::string_view name);
  // Defines or redefines `name` to run `target`.
  void Register(absl::string_view name, CallTarget* target);
  // The function if it exists (defined or not), else null.
  SLFunction* Find(absl::string_view name) const;
  // Calls `visit(SLFunction&)` for every function, in no particular order.
  template <typename F>
  void ForEach(F&& visit) const {
    for (const auto& [name, function] : functions_) visit(*function);
  }

 private:
  absl::flat_hash_map<std::string, std::unique_ptr<SLFunction>> functions_;
  friend class FunctionIds;
  // Extends table_ to every id; keeps current_table() right if it moved.
  void SyncTable();
  void MakeCurrent();

  FunctionIds* ids_ = nullptr;
  SLContext* owner_ = nullptr;
  std::vector<SLFunction*> table_;  // shared: by id
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_FUNCTION_H_
