#ifndef MOREL_LANGUAGES_SL_NODES_PROPERTY_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_PROPERTY_NODES_H_

// Property reads and writes (sl_spec §6.9) with shape-checked inline caches.
//
//   read    ReadElement (a Number key that is an array index, present in
//           the receiver's elements: a bounds check and a load) |
//           ReadCached (limit 3: shape + key -> property index) |
//           ReadGeneric (replaces ReadCached: hash lookup) |
//           fallback: "Undefined property: <key>" (also for non-objects)
//   write   WriteElement (an array index below the elements' capacity: a
//           bounds check and a store) |
//           WriteCached (limit 3: shape + key -> index, or the transition to
//           the shape with the new key) | WriteGeneric (replaces it) |
//           fallback (non-object receiver): "Undefined property: <key>"
//
// ReadElement and WriteElement stay beside the generic forms (which handle
// their misses: absent elements, growth, index keys held as named
// properties), so an array-like object keeps its fast path. The cached forms
// never cache index keys (runtime/sl_object.h: where such a key lives
// depends on the object's element capacity, not on its shape).
//
// The cached forms are plain loads and stores in compiled code: a property
// with index < SLObject::kInlineSlots is read and written in the object
// itself, the rest through its storage pointer. Adding a property (a
// cached transition) is two stores -- the value into its slot, then the new
// shape -- when the slot exists (AddFitsInPlace: an inline slot, or a
// storage slot the old shape's capacity has); the first out-of-line
// property allocates the storage (NewValues) and stores it too; only an add
// that grows existing storage calls the runtime (AddPropertyWithShape). So
// an object made by new() and filled by cached adds is allocations plus
// stores, which escape analysis can remove where the object does not
// escape.
//
// Keys are Strings after the §5.4 conversion, so o[1] and o["1"] are the
// same property. A `.name` key is a constant string node, so the cache's key
// check is one pointer comparison in the common case.
//
// Both nodes report polymorphism (splitting): a cache gaining a second entry
// or going generic. A split copy per call site keeps each site's cache to
// the shapes it sees.

#include <optional>
#include <string>

#include "languages/sl/nodes/operator_node.h"
#include "languages/sl/runtime/sl_object.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/values.h"
#include "nodes/directives.h"
#include "nodes/specialization.h"

namespace morel::sl {

class SLReadPropertyNode;
class SLWritePropertyNode;

// The cached key of a property cache entry.
struct PropertyKey {
  explicit PropertyKey(const Value& key);
  // Whether `key` converts to this key (a pointer check first).
  bool Matches(const Value& key) const;

  Value key_value;  // the key as last seen (root-allocated cache: traced)
  std::string text;
};

bool PropertyKeyMatches(const PropertyKey* cached, Value key);

// The guard shared by the cached read and write: `receiver` is an object of
// `shape` (its shape is loaded only once it is known to be an object) and
// `key` converts to the cached key. The key check is first a comparison
// with the key value the entry was made for, which compiled code folds away
// for a constant key (`o.name`); only other keys call PropertyKeyMatches.
template <typename C>
MOREL_FAST_PATH typename C::Bool CachedPropertyGuard(C& c, const PropertyKey& cached_key,
                                                     Shape* shape, typename C::V receiver,
                                                     typename C::V key) {
  return c.AndThen(c.HasTag(receiver, kObjectTag), [&] {
    return c.And(c.PointerEqual(c.LoadField(receiver, &SLObject::shape), shape),
                 c.OrElse(c.ValueIdentical(key, c.Constant(cached_key.key_value)),
                          [&] { return c.template Call<&PropertyKeyMatches>(&cached_key, key); }));
  });
}
// `receiver` is an object and `key` a Number below its element capacity
// (so an array index whose property lives in `elements`); each step is
// checked only after the one before proved it safe.
template <typename C>
MOREL_FAST_PATH typename C::Bool ElementInBounds(C& c, typename C::V receiver, typename C::V key) {
  return c.AndThen(c.HasTag(receiver, kObjectTag), [&] {
    return c.AndThen(c.IsLong(key),
                     [&] { return c.UnsignedLess(c.AsLong(key), ElementCapacity(c, receiver)); });
  });
}
Value ReadPropertyGeneric(const SLReadPropertyNode* node, Value receiver, Value key);
void WritePropertyGeneric(Value receiver, Value key, Value value);
void AddPropertyWithShape(Value receiver, Shape* shape, Value value);

struct ReadElement {
  static constexpr absl::string_view kName = "ReadElement";
  static constexpr auto Load = [](auto& c, auto receiver, auto key) {
    return c.LoadValueAt(c.LoadField(receiver, &SLObject::elements), c.AsLong(key));
  };
  static constexpr auto Guard = [](auto& c, auto receiver, auto key) MOREL_FAST_LAMBDA {
    return c.AndThen(ElementInBounds(c, receiver, key),
                     [&] { return c.Not(c.HasTag(Load(c, receiver, key), kIllegalTag)); });
  };
  static constexpr auto Body = [](auto& c, SLReadPropertyNode&, auto receiver, auto key) {
    return Load(c, receiver, key);
  };
};

struct ReadCached {
  static constexpr absl::string_view kName = "ReadCached";
  static constexpr int kLimit = 3;
  // The monomorphic cache's hit is the fast path of objects: inline in the
  // interpreter's Execute, after the element access.
  static constexpr bool kInlineInInterpreter = true;
  struct Cache {
    PropertyKey key;
    Shape* shape;
    int index;
  };
  static std::optional<Cache> Create(SLReadPropertyNode&, Value receiver, Value key);
  static constexpr auto Guard = [](auto& c, const Cache& cache, auto receiver, auto key) {
    return CachedPropertyGuard(c, cache.key, cache.shape, receiver, key);
  };
  static constexpr auto Body = [](auto& c, SLReadPropertyNode&, const Cache& cache, auto receiver,
                                  auto) { return LoadProperty(c, receiver, cache.index); };
};

struct ReadGeneric {
  static constexpr absl::string_view kName = "ReadGeneric";
  using Replaces = Specializations<ReadCached>;
  // Not where ReadElement applies, so an element read after a miss still
  // specializes to the fast path instead of staying generic.
  static constexpr auto Guard = [](auto& c, auto receiver, auto key) {
    return c.AndThen(c.HasTag(receiver, kObjectTag),
                     [&] { return c.Not(ReadElement::Guard(c, receiver, key)); });
  };
  static constexpr auto Body = [](auto& c, SLReadPropertyNode& node, auto receiver, auto key) {
    return c.template Call<&ReadPropertyGeneric>(static_cast<const SLReadPropertyNode*>(&node),
                                                 receiver, key);
  };
};

// receiver[key] and receiver.name (operands: receiver, key).
class SLReadPropertyNode final
    : public SLOperatorNode<SLReadPropertyNode, 2, ReadElement, ReadCached, ReadGeneric> {
 public:
  MOREL_NODE_KIND(SLReadPropertyNode)
  using SLOperatorNode::SLOperatorNode;
  static Value Fallback(SLReadPropertyNode& node, Value receiver, Value key);
};

struct WriteElement {
  static constexpr absl::string_view kName = "WriteElement";
  static constexpr auto Guard = [](auto& c, auto receiver, auto key, auto) {
    return ElementInBounds(c, receiver, key);
  };
  static constexpr auto Body = [](auto& c, SLWritePropertyNode&, auto receiver, auto key,
                                  auto value) {
    c.StoreValueAt(c.LoadField(receiver, &SLObject::elements), c.AsLong(key), value);
    return value;
  };
};

struct WriteCached {
  static constexpr absl::string_view kName = "WriteCached";
  static constexpr int kLimit = 3;
  // The monomorphic cache's hit is the fast path of objects: inline in the
  // interpreter's Execute, after the element access.
  static constexpr bool kInlineInInterpreter = true;
  struct Cache {
    PropertyKey key;
    Shape* old_shape;
    Shape* new_shape;  // == old_shape when the property exists
    int index;
    // Existing property, or an add that needs no new storage
    // (AddFitsInPlace): stores only.
    bool in_place;
  };
  static std::optional<Cache> Create(SLWritePropertyNode&, Value receiver, Value key, Value value);
  static constexpr auto Guard = [](auto& c, const Cache& cache, auto receiver, auto key, auto) {
    return CachedPropertyGuard(c, cache.key, cache.old_shape, receiver, key);
  };
  // Inline in the interpreter too: out of line, its call was a third of
  // a cached write (callgrind, `fields`).
  static constexpr auto Body = [](auto& c, SLWritePropertyNode&, const Cache& cache, auto receiver,
                                  auto, auto value) MOREL_FAST_LAMBDA {
    if (!cache.in_place && cache.old_shape->storage_capacity() == 0) {
      // The first out-of-line property: new storage, nothing to copy. In
      // compiled code an `alloc` that escape analysis can keep virtual
      // with the object (SLObject::AddWithShape does the same).
      auto storage = c.NewValues(cache.new_shape->storage_capacity());
      c.StoreValue(storage, cache.index - SLObject::kInlineSlots, value);
      c.StoreField(receiver, &SLObject::storage, storage);
      c.StoreField(receiver, &SLObject::shape, cache.new_shape);
    } else if (!cache.in_place) {
      // Storage that grows: the runtime copies it.
      c.template Call<&AddPropertyWithShape>(receiver, cache.new_shape, value);
    } else {
      StoreProperty(c, receiver, cache.index, value);
      if (cache.new_shape != cache.old_shape) {
        c.StoreField(receiver, &SLObject::shape, cache.new_shape);
      }
    }
    return value;
  };
};

struct WriteGeneric {
  static constexpr absl::string_view kName = "WriteGeneric";
  using Replaces = Specializations<WriteCached>;
  // Not where WriteElement applies (see ReadGeneric).
  static constexpr auto Guard = [](auto& c, auto receiver, auto key, auto) {
    return c.AndThen(c.HasTag(receiver, kObjectTag),
                     [&] { return c.Not(ElementInBounds(c, receiver, key)); });
  };
  static constexpr auto Body = [](auto& c, SLWritePropertyNode&, auto receiver, auto key,
                                  auto value) {
    c.template Call<&WritePropertyGeneric>(receiver, key, value);
    return value;
  };
};

// receiver[key] = value (operands: receiver, key, value).
class SLWritePropertyNode final
    : public SLOperatorNode<SLWritePropertyNode, 3, WriteElement, WriteCached, WriteGeneric> {
 public:
  MOREL_NODE_KIND(SLWritePropertyNode)
  using SLOperatorNode::SLOperatorNode;
  static Value Fallback(SLWritePropertyNode& node, Value receiver, Value key, Value value);
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_PROPERTY_NODES_H_
