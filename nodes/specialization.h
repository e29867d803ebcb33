#ifndef MOREL_NODES_SPECIALIZATION_H_
#define MOREL_NODES_SPECIALIZATION_H_

// Self-specialization support: the state machine of a specializing node,
// what Truffle's DSL generates, written once as a template.
//
// A specialization is a struct:
//
//   struct AddLong {
//     static constexpr absl::string_view kName = "AddLong";
//     // optional: specializations this one replaces (Truffle's `replaces`)
//     using Replaces = Specializations<...>;
//     // optional: kDefault (the node's policy), kExclude, kMegamorphic
//     static constexpr SpecializationReporting kReporting = ...;
//     // optional: tried inline in the interpreter's Execute (below)
//     static constexpr bool kInlineInInterpreter = true;
//     template <typename C>
//     static typename C::Bool Guard(C& c, typename C::V left, typename C::V right);
//     template <typename C>
//     static typename C::V Body(C& c, AddNode& node, typename C::V left,
//                               typename C::V right);
//   };
//
// An inline-cache specialization also declares `struct Cache` (the cached
// data of one instance), `static constexpr int kLimit`, and replaces Guard
// and Body with
//   static std::optional<Cache> Create(AddNode& node, Args... args);
//     // in the slow path: the cache entry these arguments would use, or
//     // nullopt if the specialization does not apply
//   template <typename C> static typename C::Bool Guard(C& c, const Cache&, Args...);
//   template <typename C> static typename C::V Body(C& c, Node&, Cache&, Args...);
// and, if the cache holds child nodes, `void ForEachChild(ChildVisitor)` on Cache.
//
// Guard and Body may equally be generic lambdas, the shorter form where the
// context's type is not needed by name (languages/sl/nodes/*.h):
//   static constexpr auto Guard = [](auto& c, auto left, auto right) {...};
//   static constexpr auto Body = [](auto& c, AddNode& node, auto left, auto right) {...};
// (MOREL_FAST_LAMBDA after the parameters for one the interpreter must inline).
//
// Specializer<NodeT, Specs...> keeps the state word (one active bit and one
// excluded bit per specialization) and the caches. Execute() tries the active
// specializations in declaration order; a miss or a RewriteOn goes to the
// slow path, which under the root's lock activates the first applicable
// specialization (respecting exclusions, limits and `replaces`), decides
// whether the change raised polymorphism, publishes the new state, reports
// outside the lock, and executes. When nothing applies it calls
// NodeT::Fallback(args...).
//
// The state word and cache lists are what the compiler reads (as
// compilation-final constants) to partially evaluate the same Guard/Body
// templates with its own context.

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "nodes/directives.h"
#include "nodes/heap.h"
#include "nodes/interpreter_context.h"
#include "nodes/node.h"
#include "nodes/root_node.h"

namespace morel {

enum class SpecializationReporting {
  kDefault,      // follow the node class's PolymorphismReporting
  kExclude,      // activating this specialization never counts as polymorphism
  kMegamorphic,  // activating it reports, whatever the node class says
};

template <typename... Specs>
struct Specializations {};

namespace specialization_internal {

template <typename S, typename = void>
struct IsCached : std::false_type {};
template <typename S>
struct IsCached<S, std::void_t<typename S::Cache>> : std::true_type {};

template <typename S, typename = void>
struct ReplacesOf {
  using type = Specializations<>;
};
template <typename S>
struct ReplacesOf<S, std::void_t<typename S::Replaces>> {
  using type = typename S::Replaces;
};

template <typename S, typename = void>
struct ReportingOf {
  static constexpr SpecializationReporting value = SpecializationReporting::kDefault;
};
template <typename S>
struct ReportingOf<S, std::void_t<decltype(S::kReporting)>> {
  static constexpr SpecializationReporting value = S::kReporting;
};

template <typename S, typename = void>
struct InlineInInterpreter : std::false_type {};
template <typename S>
struct InlineInInterpreter<S, std::void_t<decltype(S::kInlineInInterpreter)>>
    : std::bool_constant<S::kInlineInInterpreter> {};

// How many specializations the interpreter's Execute tries inline: the first
// and each following one that asks to be (kInlineInInterpreter), up to the
// first that does not (a prefix keeps the declaration order of the tries).
template <typename First, typename... Rest>
constexpr size_t InlinePrefix() {
  size_t count = 1;
  bool open = true;
  ((open = open && InlineInInterpreter<Rest>::value, count += open ? 1 : 0), ...);
  return count;
}

template <typename T, typename = void>
struct HasChildren : std::false_type {};
template <typename T>
struct HasChildren<T, std::void_t<decltype(std::declval<T&>().ForEachChild(
                          std::declval<ChildVisitor>()))>> : std::true_type {};

template <typename Target, typename... List>
constexpr int IndexOf() {
  int index = 0;
  int found = -1;
  ((std::is_same_v<Target, List> ? (found = index, ++index) : ++index), ...);
  return found;
}

// One entry of an inline cache: immutable once published.
template <typename CacheT>
struct CacheEntry : heap::RootAllocated {
  template <typename... A>
  explicit CacheEntry(A&&... a) : data(std::forward<A>(a)...) {}
  CacheT data;
  CacheEntry* next = nullptr;
};

template <typename S, bool kCached = IsCached<S>::value>
struct CacheList {
  void ForEachChild(ChildVisitor) {}
  int count() const { return 0; }
  void Retire() {}
};

template <typename S>
struct CacheList<S, true> {
  using Entry = CacheEntry<typename S::Cache>;
  std::atomic<Entry*> head{nullptr};
  std::atomic<int> size{0};

  // The chains of entries of a replaced or excluded specialization, each as
  // it was published: no longer consulted or visited, but alive until the
  // node dies, since another thread may still be walking them. (They are
  // never relinked: that was a data race with such a walk, which TSan
  // found.) Written under the root's lock. Allocated by the first
  // retirement, which most lists never see: a node's size is interpreter
  // speed (nodes/node.h).
  std::unique_ptr<std::vector<Entry*>> retired;

  ~CacheList() {
    DeleteChain(head.load(std::memory_order_relaxed));
    if (retired != nullptr) {
      for (Entry* chain : *retired) DeleteChain(chain);
    }
  }
  static void DeleteChain(Entry* chain) {
    while (chain != nullptr) {
      Entry* next = chain->next;
      delete chain;
      chain = next;
    }
  }
  void Retire() {
    Entry* chain = head.exchange(nullptr, std::memory_order_acq_rel);
    size.store(0, std::memory_order_release);
    if (chain == nullptr) return;
    if (retired == nullptr) retired = std::make_unique<std::vector<Entry*>>();
    retired->push_back(chain);
  }
  int count() const { return size.load(std::memory_order_acquire); }
  void Push(Entry* entry) {
    entry->next = head.load(std::memory_order_relaxed);
    head.store(entry, std::memory_order_release);
    size.fetch_add(1, std::memory_order_acq_rel);
  }
  void ForEachChild(ChildVisitor visitor) {
    if constexpr (HasChildren<typename S::Cache>::value) {
      for (Entry* e = head.load(std::memory_order_acquire); e != nullptr; e = e->next) {
        e->data.ForEachChild(visitor);
      }
    }
  }
};

}  // namespace specialization_internal

template <typename NodeT, typename... Specs>
class Specializer {
  static_assert(sizeof...(Specs) <= 16, "at most 16 specializations per node");

 public:
  static constexpr int kCount = sizeof...(Specs);

  template <typename S>
  static constexpr int IndexOf() {
    constexpr int index = specialization_internal::IndexOf<S, Specs...>();
    static_assert(index >= 0, "not a specialization of this node");
    return index;
  }
  static constexpr uint32_t ActiveBit(int index) { return 1u << index; }
  static constexpr uint32_t ExcludedBit(int index) { return 1u << (16 + index); }

  // The published state word: bits 0..15 active, 16..31 excluded.
  uint32_t state() const { return state_.load(std::memory_order_acquire); }
  template <typename S>
  bool IsActive() const {
    return (state() & ActiveBit(IndexOf<S>())) != 0;
  }
  template <typename S>
  bool IsExcluded() const {
    return (state() & ExcludedBit(IndexOf<S>())) != 0;
  }
  int ActiveCount() const { return __builtin_popcount(state() & 0xffff); }
  template <typename S>
  auto& cache() {
    return std::get<IndexOf<S>()>(caches_);
  }
  // Names of the active specializations, comma-separated (dumps, tests).
  std::string ActiveNames() const {
    std::string names;
    uint32_t s = state();
    int index = 0;
    // append(data, size), not +=: Debian's Abseil has its own string_view,
    // which std::string does not accept (this did not compile when used).
    ((((s & ActiveBit(index)) != 0
           ? (void)(names += (names.empty() ? "" : ","),
                    names.append(Specs::kName.data(), Specs::kName.size()))
           : void()),
      ++index),
     ...);
    return names;
  }

  // Visits the child nodes held by inline-cache entries.
  void ForEachChild(ChildVisitor visitor) {
    std::apply([&](auto&... list) { (list.ForEachChild(visitor), ...); }, caches_);
  }

  // The compiler's view (engine/pe): emits the active specializations, in
  // order, with context C — each guard and body is the same template the
  // interpreter runs. Every alternative but the last is a branch; the last
  // one's guard is a speculation (deoptimize if it fails), as is the absence
  // of any active specialization. The state word and cache entries read
  // here are compilation-final.
  template <typename C, typename... Args>
  typename C::V PartialEvaluate(C& c, NodeT& node, Args... args) {
    std::vector<std::function<typename C::Bool()>> guards;
    std::vector<std::function<typename C::V()>> bodies;
    std::vector<absl::string_view> names;
    CollectAlternatives<C>(c, node, state() & 0xffff, guards, bodies, names, Indices{},
                           args...);
    if (guards.empty()) {
      c.Deopt("unspecialized");
      return c.Unreachable();
    }
    return EmitAlternative(c, guards, bodies, names, 0);
  }

  // The interpreter's fast path, inlined into the node's Execute: the first
  // specialization (the common monomorphic case), and the ones after it that
  // ask to be (kInlineInInterpreter: a property read's monomorphic cache
  // after its element read), are tried inline; the other specializations
  // and the slow path are out of line. Every specialization inline measured
  // worse: arithmetic nodes whose rare bodies call the runtime (BigAdd,
  // ConcatValues) then save and restore registers on every execution
  // (bytecode `hotloop` 30% slower). testing/host_inlining checks the
  // optimized code.
  template <typename... Args>
  [[gnu::always_inline]] Value Execute(NodeT& node, Args... args) {
    Value result;
    if (TryActive(node, state(), result, std::make_index_sequence<kInlinePrefix>{}, args...)) {
      return result;
    }
    return ExecuteRest(node, args...);
  }
  // The inline specializations only, without the out-of-line rest and
  // without calls in their guards: the result of the first active one whose
  // guard holds; nothing when none does, when that one rewrote itself, or
  // when a guard would have called the runtime (CallFreeGuardContext). The
  // caller then runs Execute, which redoes it (a rewriting body has had no
  // effect, interpreter_context.h; a guard has none).
  template <typename... Args>
  [[gnu::always_inline]] std::optional<Value> TryInline(NodeT& node, Args... args) {
    Value result;
    bool aborted = false;
    if (TryEachInline(node, state(), result, aborted, std::make_index_sequence<kInlinePrefix>{},
                      args...) &&
        !aborted) {
      return result;
    }
    return std::nullopt;
  }
  // The entry of S, the first specialization and an inline cache, that
  // Execute would run for `args` now (S active and the entry's guard
  // holding; the same walk as Execute's, MatchingEntry), or null. For a
  // caller that does the entry's work itself: the bytecode switch runs a
  // direct call's callee in its own loop (nodes/bytecode/bytecode_switch.h).
  template <typename S, typename... Args>
  [[gnu::always_inline]] typename S::Cache* EntryFor(Args... args) {
    static_assert(IndexOf<S>() == 0 && specialization_internal::IsCached<S>::value,
                  "EntryFor: the first specialization, an inline cache");
    if ((state() & ActiveBit(0)) == 0) return nullptr;
    InterpreterContext c;
    return MatchingEntry<S, 0>(c, args...);
  }
  // Execute on the N values at `values` (a bytecode operation's operands, on
  // the operand stack): the out-of-line rest takes their address, so the
  // fast path does not also load them into argument registers for a call it
  // rarely makes (SL's bytecode switch: four loads per operation).
  template <size_t N>
  [[gnu::always_inline]] Value ExecuteOn(NodeT& node, const Value* values) {
    return ExecuteOn(node, values, std::make_index_sequence<N>());
  }

 private:
  template <size_t... I>
  [[gnu::always_inline]] Value ExecuteOn(NodeT& node, const Value* values,
                                         std::index_sequence<I...>) {
    Value result;
    if (TryActive(node, state(), result, std::make_index_sequence<kInlinePrefix>{}, values[I]...)) {
      return result;
    }
    return ExecuteRestOn<sizeof...(I)>(node, values);
  }
  template <size_t N>
  MOREL_INLINING_CUTOFF Value ExecuteRestOn(NodeT& node, const Value* values) {
    return [&]<size_t... I>(std::index_sequence<I...>) { return ExecuteRest(node, values[I]...); }
    (std::make_index_sequence<N>());
  }

  using Indices = std::index_sequence_for<Specs...>;
  static constexpr size_t kInlinePrefix = specialization_internal::InlinePrefix<Specs...>();
  static constexpr uint32_t kInlineBits = (1u << kInlinePrefix) - 1;

  // The out-of-line calls of the fast path take the node and the operands
  // only (the state is read again), so a binary operator's operands stay in
  // registers: with two more arguments GCC kept them in memory for the call
  // on every execution (SL's bytecode switch).
  template <typename... Args>
  MOREL_INLINING_CUTOFF Value ExecuteRest(NodeT& node, Args... args) {
    const uint32_t s = state();
    Value result;
    if ((s & ~kInlineBits) != 0 && TryActive(node, s & ~kInlineBits, result, Indices{}, args...)) {
      return result;
    }
    return ExecuteAndSpecialize(node, -1, args...);
  }
  // Specialization I rewrote (RewriteOn): the slow path without it.
  template <size_t I, typename... Args>
  MOREL_SLOW_PATH Value Rewrite(NodeT& node, Args... args) {
    return ExecuteAndSpecialize(node, static_cast<int>(I), args...);
  }

  template <typename C, typename... Args, size_t... I>
  void CollectAlternatives(C& c, NodeT& node, uint32_t active,
                           std::vector<std::function<typename C::Bool()>>& guards,
                           std::vector<std::function<typename C::V()>>& bodies,
                           std::vector<absl::string_view>& names,
                           std::index_sequence<I...>, Args... args) {
    (CollectOne<C, Specs, I>(c, node, active, guards, bodies, names, args...), ...);
  }

  template <typename C, typename S, size_t I, typename... Args>
  void CollectOne(C& c, NodeT& node, uint32_t active,
                  std::vector<std::function<typename C::Bool()>>& guards,
                  std::vector<std::function<typename C::V()>>& bodies,
                  std::vector<absl::string_view>& names, Args... args) {
    if ((active & ActiveBit(I)) == 0) return;
    if constexpr (specialization_internal::IsCached<S>::value) {
      for (auto* e = std::get<I>(caches_).head.load(std::memory_order_acquire);
           e != nullptr; e = e->next) {
        guards.push_back([&c, e, args...] { return S::Guard(c, e->data, args...); });
        bodies.push_back([&c, &node, e, args...] { return S::Body(c, node, e->data, args...); });
        names.push_back(S::kName);
      }
    } else {
      guards.push_back([&c, args...] { return S::Guard(c, args...); });
      bodies.push_back([&c, &node, args...] { return S::Body(c, node, args...); });
      names.push_back(S::kName);
    }
  }

  template <typename C>
  static typename C::V EmitAlternative(
      C& c, const std::vector<std::function<typename C::Bool()>>& guards,
      const std::vector<std::function<typename C::V()>>& bodies,
      const std::vector<absl::string_view>& names, size_t i) {
    if (i + 1 == guards.size()) {
      c.Speculate(guards[i](), std::string(names[i]));
      return bodies[i]();
    }
    return c.IfElse(guards[i](), bodies[i],
                    [&] { return EmitAlternative(c, guards, bodies, names, i + 1); });
  }

  // Runs the first active specialization among those indexed by I... whose
  // guard holds. When its body calls RewriteOn(true), the slow path runs
  // without it (Rewrite) and gives the result.
  template <typename... Args, size_t... I>
  [[gnu::always_inline]] bool TryActive(NodeT& node, uint32_t s, Value& result,
                                        std::index_sequence<I...>, Args... args) {
    return (TryOne<std::tuple_element_t<I, std::tuple<Specs...>>, I>(node, s, result, args...) ||
            ...);
  }

  // TryInline's TryActive: true when a specialization decided (its result,
  // or `aborted`).
  template <typename... Args, size_t... I>
  [[gnu::always_inline]] bool TryEachInline(NodeT& node, uint32_t s, Value& result, bool& aborted,
                                            std::index_sequence<I...>, Args... args) {
    return (TryOneInline<std::tuple_element_t<I, std::tuple<Specs...>>, I>(node, s, result, aborted,
                                                                           args...) ||
            ...);
  }
  template <typename S, size_t I, typename... Args>
  [[gnu::always_inline]] bool TryOneInline(NodeT& node, uint32_t s, Value& result, bool& aborted,
                                           Args... args) {
    if ((s & ActiveBit(I)) == 0) return false;
    CallFreeGuardContext g;
    InterpreterContext c;
    auto run = [&](const auto&... data) MOREL_FAST_LAMBDA {
      const bool holds = S::Guard(g, data..., args...);
      if (g.called) {
        aborted = true;
        return true;
      }
      if (!holds) return false;
      result = S::Body(c, node, data..., args...);
      aborted = c.rewrite;
      return true;
    };
    if constexpr (specialization_internal::IsCached<S>::value) {
      for (auto* e = std::get<I>(caches_).head.load(std::memory_order_acquire); e != nullptr;
           e = e->next) {
        if (run(e->data)) return true;
      }
      return false;
    } else {
      return run();
    }
  }

  // The first entry of inline cache S (specialization I) whose guard holds
  // for `args`, or null.
  template <typename S, size_t I, typename... Args>
  [[gnu::always_inline]] typename S::Cache* MatchingEntry(InterpreterContext& c, Args... args) {
    for (auto* e = std::get<I>(caches_).head.load(std::memory_order_acquire); e != nullptr;
         e = e->next) {
      if (S::Guard(c, e->data, args...)) return &e->data;
    }
    return nullptr;
  }

  template <typename S, size_t I, typename... Args>
  [[gnu::always_inline]] bool TryOne(NodeT& node, uint32_t s, Value& result, Args... args) {
    if ((s & ActiveBit(I)) == 0) return false;
    InterpreterContext c;
    if constexpr (specialization_internal::IsCached<S>::value) {
      typename S::Cache* const entry = MatchingEntry<S, I>(c, args...);
      if (entry == nullptr) return false;
      Value value = S::Body(c, node, *entry, args...);
      result = c.rewrite ? Rewrite<I>(node, args...) : value;
      return true;
    } else {
      if (!S::Guard(c, args...)) return false;
      Value value = S::Body(c, node, args...);
      result = c.rewrite ? Rewrite<I>(node, args...) : value;
      return true;
    }
  }

  // The specialization chosen by the slow path.
  struct Choice {
    int index = -1;
    void* entry = nullptr;  // the cache entry, for inline-cache specializations
    bool megamorphic_activated = false;
  };

  template <typename... Args>
  MOREL_SLOW_PATH Value ExecuteAndSpecialize(NodeT& node, int rewritten, Args... args) {
    // Each round either returns or excludes one more specialization.
    for (int round = 0; round <= kCount; ++round) {
      RootNode* root = node.GetRootNode();
      std::unique_lock<std::recursive_mutex> guard;
      if (root != nullptr) guard = std::unique_lock(root->lock());

      // The state before this round's changes, the RewriteOn exclusion
      // included: an exclusion is a polymorphic step too (DESIGN §4), so the
      // snapshot must precede it. (Taken after it, an overflow on a node whose
      // wider specialization was already active reported nothing.) Only the
      // specializations that take part in reporting count, as in Truffle's
      // generated checkForPolymorphicSpecialize: a kExclude one's active bit
      // and cache entries are masked out.
      uint32_t old_state = state_.load(std::memory_order_relaxed) & kReportingMask;
      int old_caches = ReportingCacheEntries();
      if (rewritten >= 0) {
        uint32_t s = state_.load(std::memory_order_relaxed);
        state_.store((s & ~ActiveBit(rewritten)) | ExcludedBit(rewritten),
                     std::memory_order_release);
        RetireCache(rewritten, Indices{});
        rewritten = -1;
      }
      Choice choice;
      uint32_t new_state = state_.load(std::memory_order_relaxed);
      Choose(node, new_state, choice, Indices{}, args...);
      state_.store(new_state, std::memory_order_release);
      // Compilations in flight (background) must not install code built
      // from the tree as it was before this round.
      if (root != nullptr) root->NoteRewrite();
      // Truffle's rule: only a node that was already specialized (or had
      // excluded something) can become more polymorphic, and it did if its
      // state changed or its caches grew.
      bool grew = old_state != 0 && ((new_state & kReportingMask) != old_state ||
                                     ReportingCacheEntries() > old_caches);
      bool report = ShouldReport(node, choice, grew);
      if (guard.owns_lock()) guard.unlock();
      if (report) node.ReportPolymorphicSpecialize();

      if (choice.index < 0) return NodeT::Fallback(node, args...);
      Value result;
      if (RunChosen(node, choice, result, rewritten, Indices{}, args...)) {
        return result;
      }
      // The chosen body rewrote on its first execution: exclude and retry.
    }
    return NodeT::Fallback(node, args...);
  }

  // Activates the first applicable specialization in declaration order.
  template <typename... Args, size_t... I>
  void Choose(NodeT& node, uint32_t& state, Choice& choice,
              std::index_sequence<I...>, Args... args) {
    (ChooseOne<Specs, I>(node, state, choice, args...) || ...);
  }

  template <typename S, size_t I, typename... Args>
  bool ChooseOne(NodeT& node, uint32_t& state, Choice& choice, Args... args) {
    if ((state & ExcludedBit(I)) != 0) return false;
    InterpreterContext c;
    if constexpr (specialization_internal::IsCached<S>::value) {
      auto& list = std::get<I>(caches_);
      if ((state & ActiveBit(I)) != 0) {
        // Another thread may have added the entry meanwhile.
        for (auto* e = list.head.load(std::memory_order_acquire); e != nullptr;
             e = e->next) {
          if (S::Guard(c, e->data, args...)) {
            choice.index = static_cast<int>(I);
            choice.entry = e;
            return true;
          }
        }
      }
      if (list.count() >= S::kLimit) return false;
      std::optional<typename S::Cache> data = S::Create(node, args...);
      if (!data.has_value()) return false;
      auto* entry = new specialization_internal::CacheEntry<typename S::Cache>(
          std::move(*data));
      if constexpr (specialization_internal::HasChildren<typename S::Cache>::value) {
        entry->data.ForEachChild([&node](ChildSlot& slot) {
          if (Node* child = slot.get()) AdoptInto(node, *child);
        });
      }
      list.Push(entry);
      choice.entry = entry;
    } else {
      if (!S::Guard(c, args...)) return false;
    }
    choice.index = static_cast<int>(I);
    bool newly_active = (state & ActiveBit(I)) == 0;
    state |= ActiveBit(I);
    ApplyReplaces<S>(state, typename specialization_internal::ReplacesOf<S>::type{});
    constexpr SpecializationReporting reporting =
        specialization_internal::ReportingOf<S>::value;
    choice.megamorphic_activated =
        newly_active && reporting == SpecializationReporting::kMegamorphic;
    return true;
  }

  // Truffle's `replaces`: the replaced specializations are excluded and
  // their cache entries dropped.
  template <typename S, typename... Replaced>
  void ApplyReplaces(uint32_t& state, Specializations<Replaced...>) {
    ((state = (state & ~ActiveBit(IndexOf<Replaced>())) |
              ExcludedBit(IndexOf<Replaced>()),
      std::get<IndexOf<Replaced>()>(caches_).Retire()),
     ...);
  }

  template <size_t... I>
  void RetireCache(int index, std::index_sequence<I...>) {
    ((static_cast<int>(I) == index ? std::get<I>(caches_).Retire() : void()), ...);
  }

  template <typename... Args, size_t... I>
  bool RunChosen(NodeT& node, const Choice& choice, Value& result,
                 int& rewritten, std::index_sequence<I...>, Args... args) {
    bool done = false;
    ((static_cast<int>(I) == choice.index
          ? (void)(done = RunOne<Specs, I>(node, choice, result, rewritten, args...))
          : void()),
     ...);
    return done;
  }

  template <typename S, size_t I, typename... Args>
  bool RunOne(NodeT& node, const Choice& choice, Value& result, int& rewritten,
              Args... args) {
    InterpreterContext c;
    Value value;
    if constexpr (specialization_internal::IsCached<S>::value) {
      auto* entry = static_cast<specialization_internal::CacheEntry<typename S::Cache>*>(
          choice.entry);
      value = S::Body(c, node, entry->data, args...);
    } else {
      value = S::Body(c, node, args...);
    }
    if (c.rewrite) {
      rewritten = static_cast<int>(I);
      return false;
    }
    result = value;
    return true;
  }

  static void AdoptInto(Node& parent, Node& child);

  static bool ShouldReport(NodeT& node, const Choice& choice, bool grew) {
    PolymorphismReporting policy = node.polymorphism_reporting();
    if (policy == PolymorphismReporting::kExclude) return false;
    if (choice.megamorphic_activated) return true;
    return policy == PolymorphismReporting::kReport && grew;
  }

  // Whether specialization S takes part in polymorphism reporting.
  template <typename S>
  static constexpr bool Reports() {
    return specialization_internal::ReportingOf<S>::value !=
           SpecializationReporting::kExclude;
  }
  // Every excluded bit, and the active bits of reporting specializations.
  static constexpr uint32_t ComputeReportingMask() {
    uint32_t mask = 0;
    int index = 0;
    ((mask |= ExcludedBit(index) | (Reports<Specs>() ? ActiveBit(index) : 0u),
      ++index),
     ...);
    return mask;
  }
  static constexpr uint32_t kReportingMask = ComputeReportingMask();

  // Cache entries of the reporting specializations.
  int ReportingCacheEntries() const {
    return ReportingCacheEntriesImpl(Indices{});
  }
  template <size_t... I>
  int ReportingCacheEntriesImpl(std::index_sequence<I...>) const {
    return ((Reports<Specs>() ? std::get<I>(caches_).count() : 0) + ... + 0);
  }

  std::atomic<uint32_t> state_{0};
  std::tuple<specialization_internal::CacheList<Specs>...> caches_;
};

template <typename NodeT, typename... Specs>
void Specializer<NodeT, Specs...>::AdoptInto(Node& parent, Node& child) {
  parent.Adopt(child);
}

}  // namespace morel

#endif  // MOREL_NODES_SPECIALIZATION_H_
