#include "languages/sl/nodes/property_nodes.h"

#include "absl/strings/str_cat.h"
#include "languages/sl/runtime/sl_error.h"
#include "languages/sl/runtime/value_printing.h"

namespace morel::sl {

PropertyKey::PropertyKey(const Value& key) : key_value(key), text(ConcatString(key)) {}

bool PropertyKey::Matches(const Value& key) const {
  if (key == key_value) return true;
  if (IsString(key)) return StringView(key) == text;
  return ConcatString(key) == text;
}

bool PropertyKeyMatches(const PropertyKey* cached, Value key) {
  return cached->Matches(key);
}

Value ReadPropertyGeneric(const SLReadPropertyNode*, Value receiver, Value key) {
  Value result;
  auto* object = receiver.As<SLObject>();
  if (key.IsLong() && IsArrayIndex(key.AsLong())) {
    if (!object->GetIndexed(key.AsLong(), &result)) ThrowUndefinedProperty(ConcatString(key));
    return result;
  }
  std::string text = ConcatString(key);
  if (!object->Get(text, &result)) ThrowUndefinedProperty(text);
  return result;
}

void WritePropertyGeneric(Value receiver, Value key, Value value) {
  auto* object = receiver.As<SLObject>();
  if (key.IsLong() && IsArrayIndex(key.AsLong())) {
    object->PutIndexed(key.AsLong(), value);
  } else {
    object->Put(ConcatString(key), value);
  }
}

namespace {

// Index keys are never cached: where one lives depends on the object's
// element capacity, not on its shape (runtime/sl_object.h).
bool IsIndexKey(const PropertyKey& property) {
  int64_t index;
  return ArrayIndexOf(property.text, &index);
}

}  // namespace

void AddPropertyWithShape(Value receiver, Shape* shape, Value value) {
  receiver.As<SLObject>()->AddWithShape(shape, value);
}

std::optional<ReadCached::Cache> ReadCached::Create(SLReadPropertyNode&,
                                                    Value receiver, Value key) {
  if (!IsObject(receiver)) return std::nullopt;
  PropertyKey property(key);
  if (IsIndexKey(property)) return std::nullopt;
  Shape* shape = receiver.As<SLObject>()->shape;
  int index = shape->IndexOf(property.text);
  // A missing property is not cached: the generic path reports it.
  if (index < 0) return std::nullopt;
  return Cache{std::move(property), shape, index};
}

std::optional<WriteCached::Cache> WriteCached::Create(SLWritePropertyNode&,
                                                      Value receiver, Value key,
                                                      Value) {
  if (!IsObject(receiver)) return std::nullopt;
  Shape* shape = receiver.As<SLObject>()->shape;
  // Dictionary-mode objects and objects about to become one take the
  // generic path.
  if (shape->is_dictionary()) return std::nullopt;
  PropertyKey property(key);
  if (IsIndexKey(property)) return std::nullopt;
  int index = shape->IndexOf(property.text);
  if (index >= 0) return Cache{std::move(property), shape, shape, index, /*in_place=*/true};
  if (shape->property_count() >= Shape::kMaxProperties) return std::nullopt;
  Shape* grown = shape->WithProperty(property.text);
  return Cache{std::move(property), shape, grown, grown->property_count() - 1,
               AddFitsInPlace(shape, grown)};
}

Value SLReadPropertyNode::Fallback(SLReadPropertyNode& node, Value receiver,
                                   Value key) {
  // Reading a property of a non-Object fails in the reference with an
  // internal error; sl_spec §6.9 recommends "Undefined property: <key>",
  // which we extend with the location and the receiver.
  throw SLError(absl::StrCat("Undefined property: ", ConcatString(key),
                             Location(&node.source_section()), ": ",
                             TypeErrorValue(receiver), " is not an Object"),
                &node.source_section());
}

Value SLWritePropertyNode::Fallback(SLWritePropertyNode&, Value, Value key, Value) {
  ThrowUndefinedProperty(HostString(key));
}

}  // namespace morel::sl
