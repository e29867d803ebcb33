// Randomized differential test: seeded random IR (engine/codegen/testing/
// random_ir.h) -> engine/opt default pipeline -> lowering -> machine code of every runnable backend
// code, against ir::Interpret of the unoptimized function: same return
// values, or the same deopt (reason, every decoded frame and virtual
// object), the same
// memory writes, the same runtime calls. Both the unoptimized and the
// optimized function are compiled, each with linear scan and (alternating
// seeds) with every vreg spilled.

#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "engine/codegen/testing/ir_harness.h"
#include "engine/codegen/testing/random_ir.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "engine/opt/pipeline.h"
#include "engine/opt/standard_passes.h"
#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

using codegen::ValuePair;
using ir::Type;

int64_t memory[8];
uint64_t call_log = 0;  // a digest of every runtime call, in order

int64_t Call1(int64_t a, int64_t b) {
  call_log = call_log * 31 + static_cast<uint64_t>(a);
  return static_cast<int64_t>(static_cast<uint64_t>(a) * 3 + static_cast<uint64_t>(b));
}
ValuePair Call2(int64_t a, int64_t b) {
  call_log = call_log * 37 + static_cast<uint64_t>(b);
  return {static_cast<uint64_t>(a) ^ (static_cast<uint64_t>(b) << 1), static_cast<uint64_t>(a) - 1};
}

struct Outcome {
  std::string result;
  int64_t memory[8];
  uint64_t calls;
};

const std::vector<std::vector<int64_t>> kInputs = {
    {0, 0, 0}, {1, 2, 3}, {-1, 5, 1}, {INT64_MAX, 1, -7}, {INT64_MIN, -1, 64}, {42, 12345, 5}};

void Reset() {
  for (int i = 0; i < 8; ++i) memory[i] = i * 1000;
  call_log = 0;
}

Outcome Record(const absl::StatusOr<ir::ExecutionResult>& r) {
  Outcome o;
  o.result = r.ok() ? ir::DebugString(*r) : "error: " + std::string(r.status().message());
  std::memcpy(o.memory, memory, sizeof(memory));
  o.calls = call_log;
  return o;
}

// Seeds 1..`seeds` with or without objects (alloc, virtual objects in
// frame states); returns the deopts among the runs.
void RunRandomFunctions(const std::string& backend, bool objects, uint32_t seeds) {
  ir::RuntimeRegistry registry;
  auto call1 = registry.Register({"call1", reinterpret_cast<const void*>(&Call1),
                                  {{Type::kI64, Type::kI64}, {Type::kI64}},
                                  ir::RuntimeEffects::kNoDeopt});
  auto call2 = registry.Register({"call2", reinterpret_cast<const void*>(&Call2),
                                  {{Type::kI64, Type::kI64}, {Type::kI64, Type::kI64}},
                                  ir::RuntimeEffects::kMayDeopt});
  ASSERT_TRUE(call1.ok() && call2.ok());
  codegen::testing::RandomIrOptions gen;
  gen.call1 = *call1;
  gen.call2 = *call2;
  // What TestDispatch reads per id (id 4: all operands, through the
  // outgoing-argument area like every dispatched call).
  gen.call_target_arities = {2, 3, 5, 9};
  gen.memory = memory;
  gen.objects = objects;

  testing::IrHarness harness(backend);
  ASSERT_TRUE(harness.ok()) << harness.status();
  const ir::InterpreterOptions hooks = testing::NativeEquivalentHooks();
  int runs = 0, deopts = 0, changed = 0, object_deopts = 0, allocating = 0;
  for (uint32_t seed = 1; seed <= seeds; ++seed) {
    std::unique_ptr<ir::Function> f = codegen::testing::RandomFunction(seed, gen);
    ASSERT_TRUE(ir::Verify(*f).ok()) << "seed " << seed << ": generator bug\n"
                                     << ir::Verify(*f) << "\n" << ir::PrintFunction(*f);
    std::unique_ptr<ir::Function> g = codegen::testing::RandomFunction(seed, gen);
    opt::PipelineOptions popts;
    popts.verify_ir = true;
    auto pipeline = opt::BuildDefaultPipeline(popts);
    ASSERT_TRUE(pipeline.ok());
    auto r = (*pipeline)->Run(*g);
    ASSERT_TRUE(r.ok()) << "seed " << seed << ": " << r.status();
    changed += *r ? 1 : 0;
    allocating += ir::PrintFunction(*f).find(" = alloc ") != std::string::npos ? 1 : 0;

    codegen::NativeCompileOptions options = harness.DefaultOptions();
    options.codegen.allocation.spill_everything = seed % 2 == 0;
    options.keep_machine_ir_dump = true;
    for (const ir::Function* fn : {f.get(), g.get()}) {
      auto native = harness.Compile(*fn, options);
      ASSERT_TRUE(native.ok()) << "seed " << seed << ": " << native.status() << "\n"
                               << ir::PrintFunction(*fn);
      for (const auto& in : kInputs) {
        Reset();
        Outcome want = Record(ir::Interpret(*f, in, hooks));
        Reset();
        testing::ResetTestHeap();  // each run empties its free lists a few times
        Outcome got = Record((*native)->Run(in));
        const char* which = fn == f.get() ? "unoptimized" : "optimized";
        if (got.result != want.result && fn == g.get()) {
          // Attribute a difference: does the optimized IR itself differ?
          Reset();
          Outcome opt = Record(ir::Interpret(*g, in, hooks));
          ASSERT_EQ(opt.result, want.result) << "seed " << seed << ": engine/opt changed the "
                                             << "result\n" << ir::PrintFunction(*f)
                                             << ir::PrintFunction(*g);
        }
        ASSERT_EQ(got.result, want.result)
            << "seed " << seed << " (" << which << ") input " << ::testing::PrintToString(in)
            << "\n" << ir::PrintFunction(*fn) << (*native)->compiled().machine_ir
            << (*native)->compiled().deopt_map.DebugString();
        ASSERT_EQ(std::vector<int64_t>(got.memory, got.memory + 8),
                  std::vector<int64_t>(want.memory, want.memory + 8))
            << "seed " << seed << " (" << which << ")\n" << ir::PrintFunction(*fn);
        ASSERT_EQ(got.calls, want.calls) << "seed " << seed << " (" << which << ")";
        ++runs;
        deopts += want.result.rfind("deoptimized", 0) == 0 ? 1 : 0;
        object_deopts += want.result.find(" = object ") != std::string::npos ? 1 : 0;
      }
    }
  }
  // The generator exercises both outcomes and gives the optimizer work.
  EXPECT_GT(deopts, runs / 20);
  EXPECT_LT(deopts, runs * 3 / 4);
  EXPECT_GT(changed, seeds / 2);
  if (objects) {
    EXPECT_GT(allocating, seeds / 2);
    EXPECT_GT(object_deopts, deopts / 10);
  }
  std::cout << runs << " runs, " << deopts << " deoptimized (" << object_deopts
            << " with virtual objects), " << changed << " functions changed by engine/opt, "
            << allocating << " allocate\n";
}

class LowerRandomTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LowerRandomTest, OptimizedAndLoweredCodeMatchesTheInterpreter) {
  RunRandomFunctions(GetParam(), /*objects=*/false, 400);
}

// With allocations (through the test heap's free lists and refills) and
// deopts whose frame states name virtual objects: the decoded objects equal
// the interpreter's.
TEST_P(LowerRandomTest, WithObjectsAndVirtualObjects) {
  RunRandomFunctions(GetParam(), /*objects=*/true, 300);
}

INSTANTIATE_TEST_SUITE_P(Backends, LowerRandomTest, ::testing::ValuesIn(testing::RunnableBackends()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LowerRandomTest);

}  // namespace
}  // namespace morel::codegen
