// The context vocabulary for objects (New, NewValues, StoreField, LoadField,
// in-object LoadValue/StoreValue), written once as a template and run both ways: with
// InterpreterContext, and with PeContext into IR that the reference
// interpreter runs. Both must build the same object, word for word; the IR
// must be an `alloc` and plain stores and loads at the members' offsets,
// with the alias classes pe_context.h documents (no runtime call), so
// escape analysis can see the object's fields.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/printer.h"
#include "engine/ir/runtime_function.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/pe_context.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/heap.h"
#include "nodes/interpreter_context.h"
#include "nodes/root_node.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

constexpr ValueTag kRecordTag = kFirstReferenceTag + 7;

// Header words, then values kept in the object.
struct Record {
  const char* name;
  int64_t count;
  Record* next;   // left zero
  Value* values;  // NewValues(2)
  Value slots[3];
};

const char kName[] = "record";

// A record holding `value` in slot 1 and count 3, whose slot 2 is a copy of
// slot 1 read back through the object, and whose array of two values holds
// `value` in its second.
template <typename C>
typename C::V Build(C& c, typename C::V value) {
  typename C::V record = c.template New<Record>(kRecordTag);
  c.StoreField(record, &Record::name, kName);
  c.StoreField(record, &Record::count, int64_t{3});
  c.StoreValue(record, &Record::slots, 1, value);
  c.StoreValue(record, &Record::slots, 2, c.LoadValue(record, &Record::slots, 1));
  auto values = c.NewValues(2);
  c.StoreValue(values, 1, value);
  c.StoreField(record, &Record::values, values);
  return record;
}

class BuildingRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(BuildingRoot)
  BuildingRoot() : RootNode({}, "building", std::make_unique<FrameDescriptor>()) {}
  Value Execute(Frame& frame) override {
    InterpreterContext c;
    return Build(c, frame.arguments()[0]);
  }
  absl::Status PartialEvaluate(pe::PartialEvaluator& pe) override {
    pe.Enter(this);
    pe::PeValue result = Build(pe.context(), pe.Argument(0, Value::Long(0)));
    pe.Leave();
    pe.Return(result);
    return absl::OkStatus();
  }
};

class ObjectVocabularyTest : public ::testing::Test {
 protected:
  void SetUp() override { heap::Initialize(); }
};

TEST_F(ObjectVocabularyTest, InterpreterAndCompiledCodeBuildTheSameObject) {
  test_language::TestRuntime rt;
  CallTarget* target = rt.CreateCallTarget(std::make_unique<BuildingRoot>());
  ir::RuntimeRegistry registry;
  pe::PartialEvaluator evaluator(*target, registry);
  auto compilation = evaluator.Run();
  ASSERT_TRUE(compilation.ok()) << compilation.status();
  const ir::Function& function = *(*compilation)->function;
  std::string text = ir::PrintFunction(function);

  EXPECT_NE(text.find(absl::StrCat("alloc ", sizeof(Record))), std::string::npos) << text;
  EXPECT_NE(text.find(absl::StrCat("alloc ", 2 * sizeof(Value), "\n")), std::string::npos) << text;
  EXPECT_EQ(text.find("call_runtime"), std::string::npos) << text;
  EXPECT_NE(text.find("alias \"Record+0\""), std::string::npos) << text;
  EXPECT_NE(text.find("alias \"Record+8\""), std::string::npos) << text;
  EXPECT_EQ(text.find("alias \"Record+16\""), std::string::npos) << "`next` is not written";
  EXPECT_NE(text.find("alias \"Record+24\""), std::string::npos) << text;
  // slots[1] at 32 + 16 and slots[2] at 32 + 32: payload and tag words.
  for (int offset : {48, 56, 64, 72}) {
    EXPECT_NE(text.find(absl::StrCat(", ", offset, ", alias \"value slots\"")),
              std::string::npos)
        << offset << "\n"
        << text;
  }

  Value argument = Value::Long(42);
  ir::InterpreterOptions options;
  options.allocate = [](int64_t bytes) { return heap::AllocateTraced(bytes); };
  int64_t raw_args[2] = {reinterpret_cast<int64_t>(&argument), 1};
  auto result = ir::Interpret(function, raw_args, options);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->kind, ir::ExecutionResult::Kind::kReturned);
  Value compiled{static_cast<uint64_t>(result->values[0]),
                 static_cast<ValueTag>(result->values[1])};

  Value interpreted = target->Call({argument});
  ASSERT_EQ(compiled.tag, kRecordTag);
  ASSERT_EQ(interpreted.tag, kRecordTag);
  ASSERT_NE(compiled.As<Record>(), interpreted.As<Record>());
  // Word for word, but for the pointers to the two arrays, which must hold
  // the same.
  Record copy = *interpreted.As<Record>();
  copy.values = compiled.As<Record>()->values;
  EXPECT_EQ(std::memcmp(compiled.As<Record>(), &copy, sizeof(Record)), 0);
  ASSERT_NE(compiled.As<Record>()->values, interpreted.As<Record>()->values);
  EXPECT_EQ(std::memcmp(compiled.As<Record>()->values, interpreted.As<Record>()->values,
                        2 * sizeof(Value)),
            0);
  const Record& record = *compiled.As<Record>();
  EXPECT_EQ(record.name, kName);
  EXPECT_EQ(record.count, 3);
  EXPECT_EQ(record.next, nullptr);
  EXPECT_TRUE(record.slots[0].IsIllegal());
  EXPECT_EQ(record.slots[1], argument);
  EXPECT_EQ(record.slots[2], argument);
  EXPECT_TRUE(record.values[0].IsIllegal());
  EXPECT_EQ(record.values[1], argument);
}

}  // namespace
}  // namespace morel
