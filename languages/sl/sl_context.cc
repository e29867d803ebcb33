#include "languages/sl/sl_context.h"

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "languages/sl/builtins.h"
#include "languages/sl/node_builder.h"
#include "languages/sl/parser/parser.h"
#include "languages/sl/runtime/big_integer.h"
#include "languages/sl/runtime/sl_error.h"

namespace morel::sl {

SLContext::SLContext(runtime::Engine *engine, std::FILE *out, std::FILE *in, bool owns_engine,
                     SLSharedCode *shared)
    : engine_(engine),
      shared_(shared),
      owns_engine_(owns_engine),
      out_(out),
      in_(in),
      functions_(shared != nullptr ? &shared->function_ids() : nullptr, this) {
  MOREL_CHECK_MSG(shared == nullptr || (!owns_engine && &shared->engine() == engine),
                  "shared code belongs to the engine, which a context of it cannot own");
  InitializeBigIntegers();
  RegisterBuiltins();
}

SLContext &SLContext::Current() {
  FunctionRegistry *registry = FunctionRegistry::Current();
  MOREL_CHECK_MSG(registry != nullptr && registry->owner() != nullptr,
                  "SL guest code runs outside of SLContext::Call");
  return *registry->owner();
}

SLContext::~SLContext() {
  // Background compilations read this context's functions (their "call
  // target stable" assumptions, their values): finish them before the
  // functions die. An engine of its own: the context's end closes it.
  if (owns_engine_) {
    engine_->Close();
    return;
  }
  // A shared engine: no compilation of ours may be queued or running when
  // our functions die, and our call targets are never called again (their
  // code is dropped; the engine frees them once nothing refers to them).
  // The other contexts never call our targets: functions are per context.
  engine_->WaitForCompilations();
  if (shared_ != nullptr) {
    // Shared targets: our functions stop using their units (the last user
    // of a unit retires it).
    functions_.ForEach([this](SLFunction &function) { shared_->Release(function.call_target()); });
    return;
  }
  functions_.ForEach([this](SLFunction &function) {
    if (CallTarget *target = function.call_target()) engine_->RetireCallTarget(*target);
  });
}

void SLContext::RegisterBuiltins() {
  if (shared_ != nullptr) {
    absl::Span<CallTarget *const> targets = shared_->builtin_targets();
    for (size_t i = 0; i < targets.size(); ++i) Define(Builtins()[i].name, targets[i]);
    return;
  }
  for (const BuiltinSpec &builtin : Builtins()) {
    auto root = std::make_unique<SLBuiltinRootNode>(builtin, this);
    functions_.Register(builtin.name, engine_->CreateCallTarget(std::move(root)));
  }
}

void SLContext::Define(absl::string_view name, CallTarget *target) {
  if (shared_ == nullptr) {
    functions_.Register(name, target);
    return;
  }
  SLFunction *function = functions_.Lookup(name);
  CallTarget *previous = function->call_target();
  if (previous == target) return;  // the same source again: nothing changes
  shared_->Acquire(target);
  // Redefines (invalidating code that relied on the old target) without
  // retiring: the unit's last user does.
  functions_.Register(name, target);
  shared_->Release(previous);
}

absl::StatusOr<SLFunction *> SLContext::LoadShared(absl::string_view text,
                                                   absl::string_view source_name) {
  absl::StatusOr<SLSharedCode::Unit *> unit = shared_->Load(text, source_name);
  if (!unit.ok()) return unit.status();
  SLFunction *main = nullptr;
  for (const auto &[name, target] : (*unit)->functions) {
    Define(name, target);
    if (name == "main") main = functions_.Lookup(name);
  }
  shared_->EvictIfUnused(*unit);
  return main;
}

absl::StatusOr<SLFunction *> SLContext::Load(absl::string_view text,
                                             absl::string_view source_name) {
  if (shared_ != nullptr) return LoadShared(text, source_name);
  absl::StatusOr<std::unique_ptr<ast::Program>> parsed = ParseProgram(text, source_name);
  if (!parsed.ok()) return parsed.status();
  std::shared_ptr<const ast::Program> program = *std::move(parsed);
  // Held by the nodes' source sections (and so by the call targets), not
  // by the context: a redefined function's text goes with its old target.
  auto source = std::make_shared<const Source>(std::string(source_name), std::string(text));
  SLFunction *main = nullptr;
  for (size_t i = 0; i < program->functions.size(); ++i) {
    FunctionBinding binding;
    binding.context = this;
    binding.bytecode = use_bytecode_;
    auto root = BuildFunctionRoot(binding, program, source, static_cast<int>(i));
    CallTarget *target = engine_->CreateCallTarget(std::move(root));
    const std::string &name = program->functions[i].name;
    // A redefinition invalidates the function's "call target stable"
    // assumption, and with it exactly the compiled code that calls the old
    // target directly (SLFunction::set_call_target).
    functions_.Register(name, target);
    if (name == "main") main = functions_.Lookup(name);
  }
  return main;
}

Value SLContext::Call(SLFunction *function, absl::Span<const Value> args) {
  FunctionRegistry::Scope current(&functions_);
  return function->call_target()->Call(args);
}

void SLContext::Print(absl::string_view text) {
  // MaxOutputStreamSize: raises before writing anything past the limit.
  engine_->resource_limits().ChargeOutput(text.size());
  std::fwrite(text.data(), 1, text.size(), out_);
  std::fflush(out_);
}

bool SLContext::ReadLine(std::string *line) {
  line->clear();
  int c = std::fgetc(in_);
  if (c == EOF) return false;
  while (c != EOF && c != '\n' && c != '\r') {
    line->push_back(static_cast<char>(c));
    c = std::fgetc(in_);
  }
  if (c == '\r') {
    int next = std::fgetc(in_);
    if (next != '\n' && next != EOF) std::ungetc(next, in_);
  }
  return true;
}

void SLContext::RunShutdownHooks() {
  if (hooks_ran_) return;
  hooks_ran_ = true;
  for (SLFunction *hook : shutdown_hooks_) {
    if (hook->call_target() == nullptr) ThrowUndefinedFunction(hook->AsValue());
    Call(hook, {});
  }
}

}  // namespace morel::sl
