#include "languages/sl/runtime/sl_object.h"

#include <string>

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
  ASSERT_GE(object->element_capacity, 2);
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
  EXPECT_GE(object->element_capacity, 1000);
  EXPECT_LT(object->element_capacity, 4000);
  EXPECT_EQ(object->named_index_keys, 0);
  for (int64_t i = 0; i < 1000; ++i) EXPECT_EQ(Long(object, absl::StrCat(i)), i * 2);
}

TEST_F(SLObjectTest, SparseIndexIsNamedAndStopsGrowth) {
  SLObject* object = NewObject();
  object->PutIndexed(1000000, Value::Long(1));
  EXPECT_EQ(object->element_capacity, 0);
  EXPECT_EQ(object->named_index_keys, 1);
  // Overwriting it does not count it twice.
  object->Put("1000000", Value::Long(2));
  EXPECT_EQ(object->named_index_keys, 1);
  // Later dense writes stay named too (growing would have to move 1000000
  // once the capacity passed it), and every key stays readable.
  for (int64_t i = 0; i < 100; ++i) object->PutIndexed(i, Value::Long(i));
  EXPECT_EQ(object->element_capacity, 0);
  EXPECT_TRUE(object->shape->is_dictionary());
  for (int64_t i = 0; i < 100; ++i) EXPECT_EQ(Long(object, absl::StrCat(i)), i);
  EXPECT_EQ(Long(object, "1000000"), 2);
}

TEST_F(SLObjectTest, IndexPastCapacityAfterGrowthIsNamed) {
  SLObject* object = NewObject();
  object->PutIndexed(0, Value::Long(0));
  int64_t capacity = object->element_capacity;
  int64_t far = 4 * capacity + 100;
  object->PutIndexed(far, Value::Long(7));
  EXPECT_EQ(object->element_capacity, capacity);
  EXPECT_EQ(Long(object, absl::StrCat(far)), 7);
  Value value;
  ASSERT_TRUE(object->GetIndexed(far, &value));
  EXPECT_EQ(value.AsLong(), 7);
  // Elements below the capacity still work; nothing grows any more.
  object->PutIndexed(capacity - 1, Value::Long(5));
  EXPECT_EQ(Long(object, absl::StrCat(capacity - 1)), 5);
  object->PutIndexed(capacity, Value::Long(6));
  EXPECT_EQ(object->element_capacity, capacity);
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

}  // namespace
}  // namespace morel::sl
