// `alloc` and virtual objects in native code (engine/codegen/lower.h,
// function_emitter.cc), differentially against ir::Interpret: objects
// allocated, written and read back (through the inline fast path, its
// out-of-line refill call, and without a fast path), lists built across
// many refills, values in every register live across an allocation, and
// deopts whose frame states name virtual objects, decoded with the same
// objects the interpreter reports (and materialized alike).

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/codegen/testing/ir_harness.h"
#include "engine/codegen/lower.h"
#include "engine/ir/builder.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

using ir::Opcode;
using ir::Type;
using ir::Value;
using testing::IrHarness;

class LowerAllocTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.status();
  }

  std::unique_ptr<ir::Function> Parse(const char* text) {
    auto f = ir::ParseFunction(text, &registry_);
    EXPECT_TRUE(f.ok()) << f.status();
    if (!f.ok()) return nullptr;
    absl::Status v = ir::Verify(**f);
    EXPECT_TRUE(v.ok()) << v;
    return std::move(*f);
  }

  // Native == interpreter on every input, with and without the fast path,
  // with linear scan and with every vreg spilled. The free lists start
  // empty for each run.
  void ExpectSame(const ir::Function& f, const std::vector<std::vector<int64_t>>& inputs) {
    for (bool fast : {true, false}) {
      for (bool spill : {false, true}) {
        codegen::NativeCompileOptions options = h_.DefaultOptions();
        options.lowering.heap = h_.TestHeap(fast);
        options.codegen.allocation.spill_everything = spill;
        options.keep_machine_ir_dump = true;
        auto native = h_.Compile(f, options);
        ASSERT_TRUE(native.ok()) << native.status() << "\n" << ir::PrintFunction(f);
        for (const auto& in : inputs) {
          auto want = ir::Interpret(f, in, testing::NativeEquivalentHooks());
          ASSERT_TRUE(want.ok()) << want.status();
          testing::ResetTestHeap();
          auto got = (*native)->Run(in);
          ASSERT_TRUE(got.ok()) << got.status();
          EXPECT_EQ(ir::DebugString(*got), ir::DebugString(*want))
              << "fast " << fast << " spill " << spill << " input "
              << ::testing::PrintToString(in) << "\n"
              << ir::PrintFunction(f) << (*native)->compiled().machine_ir << Disassembly(**native);
        }
      }
    }
  }

  ir::RuntimeRegistry registry_;
  std::string Disassembly(const testing::HarnessFunction& fn) {
    const codegen::CodeRegion& region = fn.compiled().code.region;
    auto text = h_.backend().Disassemble(absl::MakeConstSpan(region.start, region.size),
                                         reinterpret_cast<uint64_t>(region.start));
    return text.ok() ? *text : std::string(text.status().message());
  }

  IrHarness h_{GetParam()};
};

TEST_P(LowerAllocTest, AllocatedObjectsAreZeroAndHoldWhatIsStored) {
  // Fresh objects read zero everywhere (the fast path clears the link word
  // a listed object has), and pointers to objects stored in objects.
  auto f = Parse(R"(func @objects(i64, i64) -> (i64, i64) {
block0(v0: i64, v1: i64):
  v2 = alloc 24
  v3 = load.i64 v2, 0
  v4 = load.i64 v2, 16
  store.i64 v0, v2, 8
  v5 = alloc 16
  v6 = load.i64 v5, 0
  store.ptr v2, v5, 0
  store.i64 v1, v5, 8
  v7 = alloc 400
  v8 = load.i64 v7, 392
  v9 = load.ptr v5, 0
  v10 = load.i64 v9, 8
  v11 = iadd v10, v3
  v12 = iadd v11, v4
  v13 = iadd v12, v6
  v14 = iadd v13, v8
  v15 = load.i64 v5, 8
  return v14, v15
}
)");
  ASSERT_NE(f, nullptr);
  ExpectSame(*f, {{0, 0}, {1, 2}, {-7, 40}, {INT64_MAX, INT64_MIN}});
}

// Builds a list of n nodes [next, i, 0, 0] (32 bytes) and walks it back,
// summing i and the fields that must still be zero.
constexpr char kList[] = R"(func @list(i64) -> (i64, i64) {
block0(v0: i64):
  v1 = iconst.i64 0
  v2 = pconst 0
  jump block1(v1, v2)
block1(v3: i64, v4: ptr):
  v5 = icmp slt v3, v0
  br v5, block2, block3(v1, v4, v1)
block2:
  v6 = alloc 32
  v7 = load.i64 v6, 0
  store.ptr v4, v6, 0
  store.i64 v3, v6, 8
  v8 = iadd v3, v7
  v9 = iconst.i64 1
  v10 = iadd v8, v9
  jump block1(v10, v6)
block3(v11: i64, v12: ptr, v13: i64):
  v14 = icmp eq v12, v2
  br v14, block5, block4
block4:
  v15 = load.i64 v12, 8
  v16 = load.i64 v12, 16
  v17 = load.i64 v12, 24
  v18 = iadd v11, v15
  v19 = iadd v18, v16
  v20 = iadd v19, v17
  v21 = load.ptr v12, 0
  v22 = iconst.i64 1
  v23 = iadd v13, v22
  jump block3(v20, v21, v23)
block5:
  return v11, v13
}
)";

TEST_P(LowerAllocTest, ListAcrossManyRefills) {
  auto f = Parse(kList);
  ASSERT_NE(f, nullptr);
  ExpectSame(*f, {{0}, {1}, {2}, {3}, {4}, {100}, {1000}});
}

TEST_P(LowerAllocTest, FastPathPopsAndTheRuntimeRefills) {
  auto f = Parse(kList);
  ASSERT_NE(f, nullptr);
  constexpr int64_t n = 1000;
  for (bool spill : {false, true}) {
    codegen::NativeCompileOptions options = h_.DefaultOptions();
    options.codegen.allocation.spill_everything = spill;
    auto native = h_.Compile(*f, options);
    ASSERT_TRUE(native.ok()) << native.status();
    testing::ResetTestHeap();
    auto got = (*native)->Run({n});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->values, (std::vector<int64_t>{n * (n - 1) / 2, n}));
    // The runtime is called only on an empty list: once per refill, and
    // every other object is popped inline.
    const testing::TestHeapCounts counts = testing::TestHeapCountsOnThisThread();
    const int64_t refills = (n + testing::kTestRefillObjects - 1) / testing::kTestRefillObjects;
    EXPECT_EQ(counts.refills, refills) << "spill " << spill;
    EXPECT_EQ(counts.slow_calls, refills) << "spill " << spill;

    options.lowering.heap = h_.TestHeap(/*fast_path=*/false);
    auto slow = h_.Compile(*f, options);
    ASSERT_TRUE(slow.ok()) << slow.status();
    testing::ResetTestHeap();
    got = (*slow)->Run({n});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->values, (std::vector<int64_t>{n * (n - 1) / 2, n}));
    EXPECT_EQ(testing::TestHeapCountsOnThisThread().slow_calls, n);
  }
}

TEST_P(LowerAllocTest, ValuesInEveryRegisterSurviveTheRefillCall) {
  // k values live across four allocations (slow, fast, fast, slow with
  // three objects per refill), for k = 0..14: the allocations' results and
  // the live values take every allocatable register in turn, caller-saved
  // ones included (an allocation clobbers nothing), and the out-of-line
  // call saves an odd or even number of registers.
  for (int k = 0; k <= 14; ++k) {
    ir::Function f("live", {Type::kI64, Type::kI64}, {Type::kI64, Type::kI64});
    ir::Builder b(&f);
    b.SetInsertionPoint(b.CreateEntryBlock());
    Value* x = f.entry()->params()[0];
    Value* y = f.entry()->params()[1];
    std::vector<Value*> live;
    for (int i = 0; i < k; ++i) {
      live.push_back(b.Binary(Opcode::kIadd, b.Binary(Opcode::kImul, x, b.I64(i + 3)), y));
    }
    std::vector<Value*> objects;
    for (int j = 0; j < 4; ++j) {
      Value* o = b.Alloc(16);
      b.Store(j == 0 ? x : objects.back(), o, 8);
      objects.push_back(o);
    }
    Value* digest = b.Load(Type::kI64, objects[0], 8);
    for (Value* v : live) {
      digest = b.Binary(Opcode::kXor, b.Binary(Opcode::kImul, digest, b.I64(31)), v);
    }
    Value* chain = b.Load(Type::kPtr, objects[3], 8);  // objects[2]
    chain = b.Load(Type::kPtr, chain, 8);              // objects[1]
    chain = b.Load(Type::kPtr, chain, 8);              // objects[0]
    b.Return({digest, b.Load(Type::kI64, chain, 8)});
    ASSERT_TRUE(ir::Verify(f).ok()) << ir::Verify(f) << ir::PrintFunction(f);
    SCOPED_TRACE(absl::StrCat(k, " live values"));
    ExpectSame(f, {{5, 7}, {-1, INT64_MAX}});
  }
}

TEST_P(LowerAllocTest, LargeObjectsTakeNoFastPath) {
  auto f = Parse(R"(func @large(i64) -> (i64) {
block0(v0: i64):
  v1 = alloc 4096
  store.i64 v0, v1, 4088
  v2 = load.i64 v1, 4088
  v3 = load.i64 v1, 0
  v4 = iadd v2, v3
  return v4
}
)");
  ASSERT_NE(f, nullptr);
  ExpectSame(*f, {{3}, {-9}});
  // kAlloc's operands: bytes, the allocator and, with a fast path, the free
  // list's offset from the thread pointer.
  auto alloc_uses = [&](const ir::Function& fn) -> std::vector<codegen::MachineOperand> {
    auto lowered = codegen::Lower(fn, h_.backend(), h_.DefaultOptions().lowering);
    EXPECT_TRUE(lowered.ok()) << lowered.status();
    if (!lowered.ok()) return {};
    for (const codegen::MachineBlock& block : lowered->mf.blocks()) {
      for (const codegen::MachineInst& inst : block.insts) {
        if (inst.op == codegen::MOp::kAlloc) return inst.uses;
      }
    }
    ADD_FAILURE() << "no kAlloc\n" << lowered->mf.Dump();
    return {};
  };
  const std::vector<codegen::MachineOperand> large = alloc_uses(*f);
  ASSERT_EQ(large.size(), 2u);
  EXPECT_EQ(large[0].imm, 4096);
  auto small = Parse(R"(func @small() -> (ptr) {
block0:
  v0 = alloc 16
  return v0
}
)");
  ASSERT_NE(small, nullptr);
  const std::vector<codegen::MachineOperand> fast = alloc_uses(*small);
  ASSERT_EQ(fast.size(), 3u);
  EXPECT_EQ(fast[0].imm, 16);
  EXPECT_EQ(fast[2].imm, *h_.TestHeap().free_list_head(16));
}

TEST_P(LowerAllocTest, WithoutAnAllocatorAllocIsAnError) {
  auto f = Parse(R"(func @a() -> (ptr) {
block0:
  v0 = alloc 8
  return v0
}
)");
  ASSERT_NE(f, nullptr);
  codegen::LoweringOptions options = h_.DefaultOptions().lowering;
  options.heap = {};
  auto lowered = codegen::Lower(*f, h_.backend(), options);
  EXPECT_EQ(lowered.status().code(), absl::StatusCode::kFailedPrecondition) << lowered.status();
}

// ----------------------------------------------- deopts naming virtual objects

constexpr char kVirtual[] = R"(func @virtual(i64, i64) -> (i64) {
  vo0 = object 40 [0: i64 v0, 8: i32 v2, 16: ptr vo1, 24: i64 v3, 32: ptr vo3]
  vo1 = object 16 [0: ptr vo0, 8: i64 v1]
  vo2 = object 8 [0: i64 v4]
  vo3 = object 24 [8: ptr vo3, 16: ptr v5]
  fs0 = eager interpreter target 7 resume 1 locals [vo1:v1, v0:v1, illegal, vo2:v0] stack [vo0:v1]
  fs1 = eager interpreter target 3 resume 9 locals [vo0:v3, illegal, vo2:v4] stack [vo1:v1] parent fs0
  fs2 = eager interpreter target 3 resume 10 locals [v3:v1] stack [vo2:v3]
block0(v0: i64, v1: i64):
  v2 = trunc.i32 v0
  v3 = iadd v0, v1
  v4 = iconst.i64 99
  v5 = pconst 0
  v6 = icmp slt v0, v1
  guard v6, fs1, "ordered"
  v7 = iadd v0, v0
  v8 = iadd_overflows v0, v0
  v9 = not v8
  guard v9, fs1, "overflow"
  v10 = iconst.i64 1000
  v11 = icmp sgt v7, v10
  br v11, block1, block2
block1:
  deopt fs2, "big"
block2:
  return v7
}
)";

TEST_P(LowerAllocTest, DeoptsNameTheInterpretersObjects) {
  auto f = Parse(kVirtual);
  ASSERT_NE(f, nullptr);
  // Returns, guard fails, overflow, the deopt terminator.
  ExpectSame(*f, {{1, 2}, {5, 2}, {INT64_MAX - 1, INT64_MAX}, {600, 700}});
  // The numbering and the decoded fields, as the interpreter has them:
  // first use, innermost frame first, an object before the objects its
  // fields name.
  auto native = h_.Compile(*f);
  ASSERT_TRUE(native.ok()) << native.status();
  auto got = (*native)->Run({5, 2});
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->kind, ir::ExecutionResult::Kind::kDeoptimized);
  ASSERT_EQ(got->objects.size(), 4u) << ir::DebugString(*got);
  EXPECT_EQ(got->frames[0].locals[0].object, 0);  // vo0
  EXPECT_EQ(got->frames[0].locals[2].object, 3);  // vo2, after vo1 and vo3
  EXPECT_EQ(got->frames[1].locals[0].object, 1);  // vo1
  EXPECT_EQ(got->objects[0].fields[1].bits, 5);   // the i32 field
  EXPECT_EQ(got->objects[0].fields[2].object, 1);
  EXPECT_EQ(got->objects[2].fields[0].object, 2);  // vo3 names itself
  EXPECT_NE((*native)->compiled().deopt_map.DebugString().find("o0 = object 40 ["),
            std::string::npos)
      << (*native)->compiled().deopt_map.DebugString();
}

// What materialization makes of a result: every slot's payload replaced by
// a description of what it points to, so two results compare by shape.
std::string Materialized(ir::ExecutionResult result) {
  std::vector<void*> addresses(result.objects.size());
  ir::MaterializeDeoptObjects(
      result.objects,
      [](int64_t bytes) {
        void* p = new uint64_t[static_cast<size_t>(bytes / 8)]();  // leaked: a test
        return p;
      },
      absl::MakeSpan(addresses), result.frames);
  auto name = [&](int64_t address) -> std::string {
    for (size_t i = 0; i < addresses.size(); ++i) {
      if (reinterpret_cast<int64_t>(addresses[i]) == address) return absl::StrCat("@", i);
    }
    return absl::StrCat(address);
  };
  std::string out;
  for (const ir::DeoptFrame& frame : result.frames) {
    for (const auto* slots : {&frame.locals, &frame.stack}) {
      for (const ir::DeoptFrame::Slot& s : *slots) {
        EXPECT_EQ(s.object, -1);
        absl::StrAppend(&out, s.legal ? absl::StrCat(name(s.payload), ":", s.tag) : "-", " ");
      }
    }
    out += "| ";
  }
  for (size_t i = 0; i < addresses.size(); ++i) {
    absl::StrAppend(&out, "@", i, "[");
    const auto* words = static_cast<const int64_t*>(addresses[i]);
    for (int64_t w = 0; w < result.objects[i].size / 8; ++w) {
      absl::StrAppend(&out, name(words[w]), " ");
    }
    out += "] ";
  }
  return out;
}

TEST_P(LowerAllocTest, MaterializedObjectsMatchTheInterpreters) {
  auto f = Parse(kVirtual);
  ASSERT_NE(f, nullptr);
  auto native = h_.Compile(*f);
  ASSERT_TRUE(native.ok()) << native.status();
  for (const std::vector<int64_t>& in : {std::vector<int64_t>{5, 2}, {600, 700}}) {
    auto want = ir::Interpret(*f, in, testing::NativeEquivalentHooks());
    auto got = (*native)->Run(in);
    ASSERT_TRUE(want.ok() && got.ok());
    const std::string materialized = Materialized(*got);
    EXPECT_EQ(materialized, Materialized(*want));
    // One allocation per object however many slots and fields name it:
    // vo0 in two slots and two fields, and vo3 points at itself.
    if (in[0] == 5) {
      EXPECT_EQ(materialized,
                "@0:7 - @3:99 @1:2 | @1:2 5:2 - @3:5 @0:2 | "
                "@0[5 5 @1 7 @2 ] @1[@0 2 ] @2[0 @2 0 ] @3[99 ] ");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, LowerAllocTest, ::testing::ValuesIn(testing::RunnableBackends()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LowerAllocTest);

}  // namespace
}  // namespace morel::codegen
