#ifndef MOREL_ENGINE_PE_RUNTIME_CALL_H_
#define MOREL_ENGINE_PE_RUNTIME_CALL_H_

// RuntimeCall<&F>: the IR side of a specialization body's `Call<&F>(...)`.
//
// From F's C++ signature it derives the IR signature (a guest Value is two
// i64s, payload then tag — the SysV layout of morel::Value; integers are
// i64, bool is i1, pointers are ptr), registers F under a readable name in
// a RuntimeRegistry, and provides an invoker that calls F on unpacked
// 64-bit arguments (what ir::Interpret's call hook supplies). Native code
// calls F's address directly with the same layout.

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/pe/span_arguments.h"
#include "engine/ir/runtime_function.h"
#include "nodes/pending_exception.h"
#include "nodes/value.h"

namespace morel::pe {

// Calls a registered runtime function on unpacked arguments and writes its
// result words (as many as its signature's results) to `results`. The words
// go straight from F's return to `results`, not through memory of the
// invoker's own: a caller whose results may be guest pointers passes memory
// the collector scans (as the IR tier does: engine/runtime/compiler.cc).
using RuntimeInvoker = void (*)(absl::Span<const int64_t> args, int64_t* results);

// The invoker registered for `function`, or null.
RuntimeInvoker FindInvoker(const ir::RuntimeFunction* function);
void RegisterInvoker(const ir::RuntimeFunction* function, RuntimeInvoker invoker);

namespace runtime_call_internal {

template <typename T>
struct Arg;  // how one C++ parameter/result type crosses the boundary

template <>
struct Arg<Value> {
  static constexpr int kWords = 2;
  static void Types(std::vector<ir::Type>& out) {
    out.push_back(ir::Type::kI64);
    out.push_back(ir::Type::kI64);
  }
  static Value Unpack(const int64_t* words) {
    return Value{static_cast<uint64_t>(words[0]), static_cast<ValueTag>(words[1])};
  }
  static void Pack(const Value& v, int64_t* out) {
    out[0] = static_cast<int64_t>(v.bits);
    out[1] = static_cast<int64_t>(v.tag);
  }
};

template <>
struct Arg<bool> {
  static constexpr int kWords = 1;
  static void Types(std::vector<ir::Type>& out) { out.push_back(ir::Type::kI1); }
  static bool Unpack(const int64_t* words) { return words[0] != 0; }
  static void Pack(bool v, int64_t* out) { out[0] = v ? 1 : 0; }
};

template <>
struct Arg<int64_t> {
  static constexpr int kWords = 1;
  static void Types(std::vector<ir::Type>& out) { out.push_back(ir::Type::kI64); }
  static int64_t Unpack(const int64_t* words) { return words[0]; }
  static void Pack(int64_t v, int64_t* out) { out[0] = v; }
};

template <typename T>
struct Arg<T*> {
  static constexpr int kWords = 1;
  static void Types(std::vector<ir::Type>& out) { out.push_back(ir::Type::kPtr); }
  static T* Unpack(const int64_t* words) { return reinterpret_cast<T*>(words[0]); }
  static void Pack(T* v, int64_t* out) { out[0] = reinterpret_cast<int64_t>(v); }
};

template <auto F>
struct Traits;

template <typename R, typename... P, R (*F)(P...)>
struct Traits<F> {
  using Result = R;
  using Params = std::tuple<std::decay_t<P>...>;
  // 64-bit words the arguments take (a Value two, anything else one).
  static constexpr int kWords = (0 + ... + Arg<std::decay_t<P>>::kWords);

  static ir::RuntimeSignature Signature() {
    ir::RuntimeSignature signature;
    (Arg<std::decay_t<P>>::Types(signature.params), ...);
    if constexpr (!std::is_void_v<R>) Arg<R>::Types(signature.results);
    return signature;
  }

  template <size_t... I>
  static void InvokeImpl(absl::Span<const int64_t> words, [[maybe_unused]] int64_t* out,
                         std::index_sequence<I...>) {
    // kOffsets[0] is padding (no zero-length arrays); parameter I is at I + 1.
    constexpr int kOffsets[] = {0, Offset<I>()...};
    if constexpr (std::is_void_v<R>) {
      F(Arg<std::decay_t<P>>::Unpack(words.data() + kOffsets[I + 1])...);
    } else {
      Arg<R>::Pack(Thunk(Arg<std::decay_t<P>>::Unpack(words.data() + kOffsets[I + 1])...), out);
    }
  }
  // Words taken by the parameters before parameter I.
  template <size_t I>
  static constexpr int Offset() {
    constexpr int kWords[] = {Arg<std::decay_t<P>>::kWords..., 0};
    int total = 0;
    for (size_t i = 0; i < I; ++i) total += kWords[i];
    return total;
  }
  static void Invoke(absl::Span<const int64_t> words, int64_t* out) {
    InvokeImpl(words, out, std::index_sequence_for<P...>{});
  }

  // What compiled code calls: F itself, or for a function returning a
  // Value, a thunk that turns a thrown guest error into the pending-
  // exception marker (nodes/pending_exception.h). Other runtime functions
  // must not throw.
  static R Thunk(P... args) {
    if constexpr (std::is_same_v<R, Value>) {
      return CatchIntoMarker([&] { return F(args...); });
    } else {
      return F(args...);
    }
  }
};

// "morel::sl::BigAdd" from this function's signature text.
template <auto F>
std::string FunctionName() {
  absl::string_view text = __PRETTY_FUNCTION__;
  size_t start = text.find("F = ");
  if (start == absl::string_view::npos) return "runtime_function";
  start += 4;
  size_t end = text.find_first_of(";]", start);
  std::string name(text.substr(start, end - start));
  if (!name.empty() && name[0] == '&') name.erase(0, 1);
  return name;
}

// Registers `function` as "<base_name><suffix>" (registering the same
// name and signature again returns the existing entry), or, if another
// function took that name (two functions that print the same), as
// "<base_name>@<f><suffix>"; `invoker` runs it in the IR tier.
inline const ir::RuntimeFunction* Register(ir::RuntimeRegistry& registry,
                                           ir::RuntimeFunction function, const void* f,
                                           absl::string_view base_name, absl::string_view suffix,
                                           RuntimeInvoker invoker) {
  function.name = absl::StrCat(base_name, suffix);
  absl::StatusOr<const ir::RuntimeFunction*> registered = registry.Register(function);
  if (!registered.ok()) {
    function.name = absl::StrCat(base_name, "@", reinterpret_cast<uintptr_t>(f), suffix);
    registered = registry.Register(std::move(function));
  }
  const ir::RuntimeFunction* result = registered.value();
  RegisterInvoker(result, invoker);
  return result;
}

}  // namespace runtime_call_internal

// Registers F (once per registry) under `name` and returns its IR
// description.
template <auto F>
const ir::RuntimeFunction* RuntimeCall(ir::RuntimeRegistry& registry,
                                       ir::RuntimeEffects effects, const std::string& name) {
  using Traits = runtime_call_internal::Traits<F>;
  ir::RuntimeFunction function;
  function.address = reinterpret_cast<const void*>(&Traits::Thunk);
  function.signature = Traits::Signature();
  function.effects = effects;
  return runtime_call_internal::Register(registry, std::move(function),
                                         reinterpret_cast<const void*>(F), name, "",
                                         &Traits::Invoke);
}

// The same, named after F ("morel::sl::BigAdd").
template <auto F>
const ir::RuntimeFunction* RuntimeCall(ir::RuntimeRegistry& registry,
                                       ir::RuntimeEffects effects) {
  return RuntimeCall<F>(registry, effects, runtime_call_internal::FunctionName<F>());
}

// ---- guest calls that stack walks see through
//
// A runtime call that may run guest code (PeContext::CallGuest) goes
// through the engine's guest-call entry rather than to F directly, so that
// a stack walk while F runs lists the compiled caller
// (engine/runtime/compiled_frames.h). Compiled code calls
//
//   entry(invoker, w0, ..., w4) -> (result words), with the lazy frame state
//
// where `invoker` is F's RuntimeInvoker and w0.. F's argument words (at
// most kGuestCallMaxWords: what the argument registers hold besides the
// invoker; unused ones are undefined; more words go through
// PackedGuestRuntimeCall below). The entry makes the caller's
// compiled frames visible to stack walks, runs invoker(words, results) and
// returns results[0] and results[1]. In the IR tier the function's invoker
// runs F's invoker on the words, and the tier lists the activation itself.
inline constexpr int kGuestCallMaxWords = 5;
// Set by the engine (the native tier's, or a default in Engine::Create);
// null until then, and then guest calls go to F directly (stack walks do not
// see the caller).
void SetGuestCallEntry(const void* entry);
// Sets `entry` unless an entry is set already.
void SetGuestCallEntryIfUnset(const void* entry);
const void* GuestCallEntry();

namespace runtime_call_internal {
template <auto F>
void GuestInvoke(absl::Span<const int64_t> words, int64_t* results) {
  Traits<F>::Invoke(words.subspan(1), results);  // words[0] is the invoker
}
}  // namespace runtime_call_internal

// Registers the guest-call entry for F as `<name>[guest]`: parameters a ptr
// (the invoker) and F's, with a bool widened to i64 (compiled code passes
// whole words); F's results. Requires GuestCallEntry().
template <auto F>
const ir::RuntimeFunction* GuestRuntimeCall(ir::RuntimeRegistry& registry,
                                            const std::string& name) {
  using Traits = runtime_call_internal::Traits<F>;
  static_assert(Traits::kWords <= kGuestCallMaxWords, "too many argument words");
  ir::RuntimeFunction function;
  function.address = GuestCallEntry();
  ir::RuntimeSignature signature = Traits::Signature();
  for (ir::Type& type : signature.params) {
    if (type == ir::Type::kI1) type = ir::Type::kI64;
  }
  signature.params.insert(signature.params.begin(), ir::Type::kPtr);
  function.signature = std::move(signature);
  function.effects = ir::RuntimeEffects::kNoDeopt;
  return runtime_call_internal::Register(registry, std::move(function),
                                         reinterpret_cast<const void*>(F), name, "[guest]",
                                         &runtime_call_internal::GuestInvoke<F>);
}

// A guest call whose argument words do not fit the entry's registers:
// compiled code stores F's words in `count` reserved slots of the span
// argument stack (span_arguments.h) and calls the entry with
// (invoker, slots, count); the invoker runs F on the words and releases the
// slots. Registered as `<name>[guest packed]`.
namespace runtime_call_internal {
template <auto F>
void PackedInvoke(absl::Span<const int64_t> words, int64_t* results) {
  auto* slots = reinterpret_cast<Value*>(words[0]);
  const int64_t count = words[1];
  struct Release {
    Value* slots;
    int64_t count;
    ~Release() { ReleaseSpanArguments(slots, count); }
  } release{slots, count};
  Traits<F>::Invoke(absl::Span<const int64_t>(reinterpret_cast<const int64_t*>(slots),
                                              static_cast<size_t>(Traits<F>::kWords)),
                    results);
}
template <auto F>
void PackedGuestInvoke(absl::Span<const int64_t> words, int64_t* results) {
  PackedInvoke<F>(words.subspan(1), results);  // words[0] is the invoker
}
}  // namespace runtime_call_internal

template <auto F>
const ir::RuntimeFunction* PackedGuestRuntimeCall(ir::RuntimeRegistry& registry,
                                                  const std::string& name) {
  using Traits = runtime_call_internal::Traits<F>;
  ir::RuntimeFunction function;
  function.address = GuestCallEntry();
  function.signature.params = {ir::Type::kPtr, ir::Type::kPtr, ir::Type::kI64};
  function.signature.results = Traits::Signature().results;
  function.effects = ir::RuntimeEffects::kNoDeopt;
  return runtime_call_internal::Register(registry, std::move(function),
                                         reinterpret_cast<const void*>(F), name,
                                         "[guest packed]",
                                         &runtime_call_internal::PackedGuestInvoke<F>);
}

}  // namespace morel::pe

#endif  // MOREL_ENGINE_PE_RUNTIME_CALL_H_
