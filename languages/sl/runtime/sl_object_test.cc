#include "languages/sl/runtime/sl_object.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nodes/heap.h"

namespace morel::sl {
namespace {

class SLObjectTest : public ::testing::Test {
 protected:
  void SetUp() override { heap::Initialize(); }

  static int64_t Long(const SLObject* object, absl::string_view key) {
    Value value;
    EXPECT_TRUE(object->Get(key, &value)) << key;
    return value.AsLong();
  }
  static bool Has(const SLObject* object, absl::string_view key) {
    Value value;
    return object->Get(key, &value);
  }
};

TEST_F(SLObjectTest, ArrayIndexOfAcceptsOnlyCanonicalIndices) {
  int64_t index = -1;
  EXPECT_TRUE(ArrayIndexOf("0", &index));
  EXPECT_EQ(index, 0);
  EXPECT_TRUE(ArrayIndexOf("42", &index));
  EXPECT_EQ(index, 42);
  EXPECT_TRUE(ArrayIndexOf("2147483646", &index));
  EXPECT_EQ(index, kMaxElementIndex - 1);
  for (absl::string_view key : {"", "-1", "+1", "01", "00", "1.0", "1e3", " 1", "x",
                                "2147483647", "99999999999", "4294967296"}) {
    EXPECT_FALSE(ArrayIndexOf(key, &index)) << key;
  }
}

TEST_F(SLObjectTest, IndexKeysGoToElementsAndStringFormsAgree) {
  SLObject* object = NewObject();
  object->PutIndexed(0, Value::Long(10));
  object->Put("1", Value::Long(11));
  ASSERT_GE(object->element_capacity(), 2);
  EXPECT_EQ(object->shape, Shape::Empty());  // nothing named
  EXPECT_EQ(Long(object, "0"), 10);
  Value value;
  ASSERT_TRUE(object->GetIndexed(1, &value));
  EXPECT_EQ(value.AsLong(), 11);
  // A hole inside the capacity is absent.
  EXPECT_FALSE(object->GetIndexed(5, &value));
  EXPECT_FALSE(Has(object, "5"));
  // "01" is a named property, distinct from 1.
  object->Put("01", Value::Long(99));
  EXPECT_EQ(Long(object, "01"), 99);
  EXPECT_EQ(Long(object, "1"), 11);
  EXPECT_EQ(object->shape->property_count(), 1);
}

TEST_F(SLObjectTest, AppendsGrowTheElements) {
  SLObject* object = NewObject();
  for (int64_t i = 0; i < 1000; ++i) object->PutIndexed(i, Value::Long(i * 2));
  EXPECT_GE(object->element_capacity(), 1000);
  EXPECT_LT(object->element_capacity(), 4000);
  EXPECT_FALSE(object->HasNamedIndexKeys());
  for (int64_t i = 0; i < 1000; ++i) EXPECT_EQ(Long(object, absl::StrCat(i)), i * 2);
}

TEST_F(SLObjectTest, SparseIndexIsNamedAndStopsGrowth) {
  SLObject* object = NewObject();
  object->PutIndexed(1000000, Value::Long(1));
  EXPECT_EQ(object->element_capacity(), 0);
  EXPECT_TRUE(object->HasNamedIndexKeys());
  EXPECT_TRUE(object->shape->has_index_key());
  object->Put("1000000", Value::Long(2));
  EXPECT_TRUE(object->HasNamedIndexKeys());
  // Later dense writes stay named too (growing would have to move 1000000
  // once the capacity passed it), and every key stays readable.
  for (int64_t i = 0; i < 100; ++i) object->PutIndexed(i, Value::Long(i));
  EXPECT_EQ(object->element_capacity(), 0);
  EXPECT_TRUE(object->shape->is_dictionary());
  for (int64_t i = 0; i < 100; ++i) EXPECT_EQ(Long(object, absl::StrCat(i)), i);
  EXPECT_EQ(Long(object, "1000000"), 2);
}

TEST_F(SLObjectTest, IndexPastCapacityAfterGrowthIsNamed) {
  SLObject* object = NewObject();
  object->PutIndexed(0, Value::Long(0));
  int64_t capacity = object->element_capacity();
  int64_t far = 4 * capacity + 100;
  object->PutIndexed(far, Value::Long(7));
  EXPECT_EQ(object->element_capacity(), capacity);
  EXPECT_EQ(Long(object, absl::StrCat(far)), 7);
  Value value;
  ASSERT_TRUE(object->GetIndexed(far, &value));
  EXPECT_EQ(value.AsLong(), 7);
  // Elements below the capacity still work; nothing grows any more.
  object->PutIndexed(capacity - 1, Value::Long(5));
  EXPECT_EQ(Long(object, absl::StrCat(capacity - 1)), 5);
  object->PutIndexed(capacity, Value::Long(6));
  EXPECT_EQ(object->element_capacity(), capacity);
  EXPECT_EQ(Long(object, absl::StrCat(capacity)), 6);
}

TEST_F(SLObjectTest, ElementsSurviveDictionaryMode) {
  SLObject* object = NewObject();
  for (int i = 0; i < 10; ++i) object->PutIndexed(i, Value::Long(i));
  for (int i = 0; i < Shape::kMaxProperties + 5; ++i) {
    object->Put(absl::StrCat("k", i), Value::Long(100 + i));
  }
  EXPECT_TRUE(object->shape->is_dictionary());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(Long(object, absl::StrCat(i)), i);
  EXPECT_EQ(Long(object, "k0"), 100);
  object->PutIndexed(10, Value::Long(10));
  EXPECT_EQ(Long(object, "10"), 10);
}

// The layout compiled code relies on (property_nodes.h, sl_object.h's
// templates): a zero-filled block of three header words and the inline
// slots, of which a new object sets only the shape and the elements.
TEST_F(SLObjectTest, NewObjectIsAZeroFilledBlockWithTheEmptyShape) {
  static_assert(sizeof(SLObject) == 24 + 16 * SLObject::kInlineSlots);
  static_assert(offsetof(SLObject, shape) == 0);
  static_assert(offsetof(SLObject, inline_slots) == 24);
  SLObject* object = NewObject();
  EXPECT_EQ(object->shape, Shape::Empty());
  EXPECT_EQ(object->storage, nullptr);
  EXPECT_EQ(object->elements, NoElements());
  EXPECT_EQ(object->element_capacity(), 0);
  for (const Value& slot : object->inline_slots) EXPECT_TRUE(slot.IsIllegal());
  EXPECT_FALSE(object->HasNamedIndexKeys());
}

TEST_F(SLObjectTest, FirstPropertiesAreInlineTheRestInStorage) {
  constexpr int kInline = SLObject::kInlineSlots;
  SLObject* object = NewObject();
  for (int i = 0; i < kInline; ++i) {
    object->Put(absl::StrCat("p", i), Value::Long(i));
    EXPECT_EQ(object->storage, nullptr) << i;
    EXPECT_EQ(object->shape->storage_capacity(), 0);
    EXPECT_EQ(object->inline_slots[i].AsLong(), i);
  }
  Value* storage = nullptr;
  for (int i = kInline; i < Shape::kMaxProperties; ++i) {
    Shape* before = object->shape;
    Shape* after = before->WithProperty(absl::StrCat("p", i));
    // Storage moves exactly when the old shape's capacity is too small.
    EXPECT_EQ(AddFitsInPlace(before, after), i - kInline < before->storage_capacity()) << i;
    object->Put(absl::StrCat("p", i), Value::Long(i));
    EXPECT_EQ(object->shape, after);
    if (AddFitsInPlace(before, after)) {
      EXPECT_EQ(object->storage, storage) << i;
    } else {
      storage = object->storage;
    }
    // Capacity: 4, then doubling, always enough.
    int out_of_line = i - kInline + 1;
    int capacity = object->shape->storage_capacity();
    EXPECT_GE(capacity, out_of_line);
    EXPECT_LE(capacity, std::max(4, 2 * out_of_line));
    EXPECT_EQ(object->storage[i - kInline].AsLong(), i);
  }
  for (int i = 0; i < Shape::kMaxProperties; ++i) {
    EXPECT_EQ(Long(object, absl::StrCat("p", i)), i);
    int index = object->shape->IndexOf(absl::StrCat("p", i));
    const Value& slot =
        index < kInline ? object->inline_slots[index] : object->storage[index - kInline];
    EXPECT_EQ(slot.AsLong(), i);
  }
  // Overwriting changes neither shape nor storage.
  Shape* shape = object->shape;
  object->Put("p0", Value::Long(100));
  object->Put(absl::StrCat("p", kInline), Value::Long(101));
  EXPECT_EQ(object->shape, shape);
  EXPECT_EQ(object->storage, storage);
  EXPECT_EQ(object->inline_slots[0].AsLong(), 100);
  EXPECT_EQ(object->storage[0].AsLong(), 101);
}

TEST_F(SLObjectTest, DictionaryModeClearsTheInlineSlots) {
  SLObject* object = NewObject();
  for (int i = 0; i <= Shape::kMaxProperties; ++i) {
    object->Put(absl::StrCat("p", i), Value::Long(i));
  }
  ASSERT_TRUE(object->shape->is_dictionary());
  for (const Value& slot : object->inline_slots) EXPECT_TRUE(slot.IsIllegal());
  for (int i = 0; i <= Shape::kMaxProperties; ++i) {
    EXPECT_EQ(Long(object, absl::StrCat("p", i)), i);
  }
  EXPECT_FALSE(object->HasNamedIndexKeys());
  // Elements still grow (no index key is named) ...
  object->PutIndexed(0, Value::Long(7));
  EXPECT_GT(object->element_capacity(), 0);
  // ... until one is: a far index key in the dictionary stops the growth.
  int64_t capacity = object->element_capacity();
  object->PutIndexed(1000000, Value::Long(8));
  EXPECT_TRUE(object->HasNamedIndexKeys());
  object->PutIndexed(capacity, Value::Long(9));
  EXPECT_EQ(object->element_capacity(), capacity);
  EXPECT_EQ(Long(object, absl::StrCat(capacity)), 9);
  EXPECT_EQ(Long(object, "1000000"), 8);
  // The fact survives the table's growth.
  for (int i = 0; i < 200; ++i) object->Put(absl::StrCat("q", i), Value::Long(i));
  EXPECT_TRUE(object->HasNamedIndexKeys());
}

TEST_F(SLObjectTest, ANamedIndexKeyCarriesIntoDictionaryMode) {
  SLObject* object = NewObject();
  object->PutIndexed(1000000, Value::Long(1));
  for (int i = 0; i <= Shape::kMaxProperties; ++i) {
    object->Put(absl::StrCat("p", i), Value::Long(i));
  }
  ASSERT_TRUE(object->shape->is_dictionary());
  EXPECT_TRUE(object->HasNamedIndexKeys());
  object->PutIndexed(0, Value::Long(2));
  EXPECT_EQ(object->element_capacity(), 0);
  EXPECT_EQ(Long(object, "0"), 2);
  EXPECT_EQ(Long(object, "1000000"), 1);
}

TEST_F(SLObjectTest, KeysAreIndicesAscendingThenOthersInTheOrderAdded) {
  SLObject* object = NewObject();
  EXPECT_TRUE(object->Keys().empty());
  object->Put("x", Value::Long(1));
  object->Put("name", Value::Long(2));
  object->PutIndexed(1, Value::Long(3));   // an element
  object->Put("0", Value::Long(4));        // an element too
  object->PutIndexed(1000000, Value::Long(5));  // sparse: a named index key
  object->Put("01", Value::Long(6));       // not an index
  object->Put("x", Value::Long(7));        // overwritten: keeps its place
  for (int i = 0; i < 5; ++i) object->Put(absl::StrCat("k", i), Value::Long(i));
  ASSERT_GT(object->element_capacity(), 0);
  ASSERT_FALSE(object->shape->is_dictionary());
  EXPECT_EQ(object->Keys(), (std::vector<std::string>{"0", "1", "1000000", "x", "name", "01",
                                                      "k0", "k1", "k2", "k3", "k4"}));
  // A hole in the elements is no key.
  object->PutIndexed(3, Value::Long(8));
  EXPECT_EQ(object->Keys()[2], "3");
  EXPECT_EQ(object->Keys().size(), 12);
}

TEST_F(SLObjectTest, DictionaryModeKeysAreInByteOrder) {
  SLObject* object = NewObject();
  object->PutIndexed(2, Value::Long(0));
  for (int i = Shape::kMaxProperties; i >= 0; --i) {
    object->Put(absl::StrCat("p", i), Value::Long(i));
  }
  object->PutIndexed(1000000, Value::Long(1));
  ASSERT_TRUE(object->shape->is_dictionary());
  std::vector<std::string> expected = {"2", "1000000"};
  std::vector<std::string> names;
  for (int i = 0; i <= Shape::kMaxProperties; ++i) names.push_back(absl::StrCat("p", i));
  std::sort(names.begin(), names.end());
  expected.insert(expected.end(), names.begin(), names.end());
  EXPECT_EQ(object->Keys(), expected);
}

}  // namespace
}  // namespace morel::sl
