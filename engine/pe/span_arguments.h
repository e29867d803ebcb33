#ifndef MOREL_ENGINE_PE_SPAN_ARGUMENTS_H_
#define MOREL_ENGINE_PE_SPAN_ARGUMENTS_H_

// Passing a variable number of guest values (absl::Span<const Value>) from
// compiled code to a runtime function.
//
// Runtime calls pass their operands in argument registers
// (engine/codegen/lower.h), so a span cannot travel by value. Compiled code
// instead reserves `count` slots on a per-thread stack of Values, stores the
// values there, and calls SpanThunk<F>::kCall, which hands F a span over the
// slots and releases them when F returns or throws.
//
// Invariants: reservations nest (a callee's frame may point at its
// arguments in the slots until the call returns), so the stack is LIFO;
// slots never move (the stack grows by chunks); the memory is a collector
// root (heap::AllocateRoot), and released slots are cleared so they keep
// nothing alive. Nothing between the reservation and the call may leave the
// compiled code (PeContext emits only stores there).

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "absl/types/span.h"
#include "nodes/value.h"

namespace morel::pe {

// `count` fresh slots on this thread's argument stack (null if count is 0).
Value* ReserveSpanArguments(int64_t count);
// Releases the most recent reservation, which must be (slots, count).
void ReleaseSpanArguments(Value* slots, int64_t count);
// Slots currently reserved on this thread (tests).
int64_t ReservedSpanArguments();

namespace span_arguments_internal {

template <typename Tuple, typename Sequence>
struct Thunk;

template <auto F, typename R, typename... P, size_t... I>
struct Thunk<std::tuple<std::integral_constant<decltype(F), F>, R, std::tuple<P...>>,
             std::index_sequence<I...>> {
  using Params = std::tuple<P...>;
  static R Call(std::tuple_element_t<I, Params>... fixed, Value* slots, int64_t count) {
    struct Release {
      Value* slots;
      int64_t count;
      ~Release() { ReleaseSpanArguments(slots, count); }
    } release{slots, count};
    return F(fixed..., absl::Span<const Value>(slots, static_cast<size_t>(count)));
  }
};

}  // namespace span_arguments_internal

// For F = R(P0, ..., Pk-1, absl::Span<const Value>): kCall is
// R(P0, ..., Pk-1, Value* slots, int64_t count), which calls F with a span
// over the slots and then releases them.
template <auto F, typename Signature = decltype(F)>
struct SpanThunk;

template <auto F, typename R, typename... P>
struct SpanThunk<F, R (*)(P...)> {
  static_assert(sizeof...(P) >= 1, "F must take an absl::Span<const Value> last");
  static_assert(std::is_same_v<std::tuple_element_t<sizeof...(P) - 1, std::tuple<P...>>,
                               absl::Span<const Value>>,
                "F must take an absl::Span<const Value> last");
  using Impl = span_arguments_internal::Thunk<
      std::tuple<std::integral_constant<decltype(F), F>, R, std::tuple<P...>>,
      std::make_index_sequence<sizeof...(P) - 1>>;
  static constexpr auto kCall = &Impl::Call;
};

}  // namespace morel::pe

#endif  // MOREL_ENGINE_PE_SPAN_ARGUMENTS_H_
