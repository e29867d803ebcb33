// Differential test of the passes that reason about memory and guard
// placement (guard_hoist, simplify_cfg, load_elim) on the shape the PE emits
// for property accesses: the reference interpreter runs the function on
// real host memory before and after the default pipeline (at every fuel
// level up to the full rewrite count) and must see the same result or the
// same deoptimization (reason and frame values), and leave memory the same.
// The object states cover each guard failing, a storage pointer that
// aliases the object itself (a store then overwrites the shape: loads of
// another base must not survive it) and a runtime call that writes the
// storage (loads must not be merged across it). The same accesses with
// alias classes (the object's fields vs. the storage's value slots) run the
// separate-storage states and must keep fewer loads.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/ir/interpreter.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/runtime_function.h"
#include "engine/opt/pipeline.h"
#include "engine/opt/standard_passes.h"
#include "gtest/gtest.h"

namespace morel::opt {
namespace {

// p.x = p.x + p.dx; if (p.x < 1000) return p.x; touch(p); return p.x +
// p.dx; with the tag && shape checks of every access as diamonds.
constexpr char kAccesses[] = R"(declare @touch(i64) -> (i64)
func @step(i64, i64) -> (i64, i64) {
  fs0 = eager interpreter target 25 resume 2 locals [v0:v1] stack []
  fs1 = eager interpreter target 25 resume 4 locals [v0:v1] stack [v12:v1]
  fs2 = eager interpreter target 25 resume 7 locals [v0:v1] stack [v19:v1]
  fs3 = eager interpreter target 25 resume 9 locals [v0:v1] stack [v19:v1]
  fs4 = eager interpreter target 25 resume 11 locals [v0:v1] stack [v30:v1, v40:v1]
block0(v0: i64, v1: i64):
  v2 = iconst.i64 1027
  v3 = icmp eq v1, v2
  v4 = iconst.i1 0
  br v3, block1, block2(v4)
block1:
  v5 = bitcast.ptr v0
  v6 = load.ptr v5, 0
  v7 = pconst 0x1000
  v8 = icmp eq v6, v7
  jump block2(v8)
block2(v9: i1):
  guard v9, fs0, "ReadCached"
  v10 = bitcast.ptr v0
  v11 = load.ptr v10, 8
  v12 = load.i64 v11, 0
  br v3, block3, block4(v4)
block3:
  v13 = load.ptr v10, 0
  v14 = pconst 0x1000
  v15 = icmp eq v13, v14
  jump block4(v15)
block4(v16: i1):
  guard v16, fs1, "ReadCached"
  v17 = load.ptr v10, 8
  v18 = load.i64 v17, 16
  v19 = iadd v12, v18
  br v3, block5, block6(v4)
block5:
  v20 = load.ptr v10, 0
  v21 = pconst 0x1000
  v22 = icmp eq v20, v21
  jump block6(v22)
block6(v23: i1):
  guard v23, fs2, "WriteCached"
  v24 = load.ptr v10, 8
  store.i64 v19, v24, 0
  br v3, block7, block8(v4)
block7:
  v25 = load.ptr v10, 0
  v26 = pconst 0x1000
  v27 = icmp eq v25, v26
  jump block8(v27)
block8(v28: i1):
  guard v28, fs3, "ReadCached"
  v29 = load.ptr v10, 8
  v30 = load.i64 v29, 0
  v31 = iconst.i64 1000
  v32 = icmp slt v30, v31
  v33 = zext.i64 v32
  v34 = iconst.i64 0
  v35 = icmp eq v33, v34
  v36 = zext.i64 v35
  v37 = icmp ne v36, v34
  br v37, block9, block10
block9:
  return v30, v1
block10:
  v40 = call_runtime @touch(v0) -> (i64)
  br v3, block11, block12(v4)
block11:
  v41 = load.ptr v10, 0
  v42 = pconst 0x1000
  v43 = icmp eq v41, v42
  jump block12(v43)
block12(v44: i1):
  guard v44, fs4, "ReadCached"
  v45 = load.ptr v10, 8
  v46 = load.i64 v45, 16
  v47 = iadd v30, v46
  return v47, v1
}
)";

// An object: [shape, storage pointer, ...], and its storage.
struct Heap {
  int64_t object[4] = {0, 0, 0, 0};
  int64_t storage[4] = {0, 0, 0, 0};
};

struct Scenario {
  const char* name;
  int64_t tag;
  int64_t shape;
  bool storage_is_object;  // the storage pointer aliases the object
  int64_t x, dx;
  int64_t touch_writes;  // what @touch stores into storage[0]; -1: nothing
};

std::string Execute(const ir::Function& f, const Scenario& s) {
  // One heap for every run, so the object's address (a frame value of the
  // deoptimizations) is the same before and after optimization.
  static Heap heap;
  heap = Heap();
  heap.object[0] = s.shape;
  int64_t* storage = s.storage_is_object ? heap.object : heap.storage;
  heap.object[1] = reinterpret_cast<int64_t>(storage);
  if (!s.storage_is_object) storage[0] = s.x;  // else x is the shape
  storage[2] = s.dx;
  ir::InterpreterOptions options;
  options.call_runtime = [&](const ir::RuntimeFunction&, absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> {
    auto* object = reinterpret_cast<int64_t*>(args[0]);
    if (s.touch_writes >= 0) reinterpret_cast<int64_t*>(object[1])[0] = s.touch_writes;
    return std::vector<int64_t>{7};
  };
  auto r = ir::Interpret(f, {reinterpret_cast<int64_t>(heap.object), s.tag}, options);
  std::string out = r.ok() ? ir::DebugString(*r) : "error: " + std::string(r.status().message());
  // Memory after the run (the storage pointer itself is not printed: it
  // differs between heaps).
  out += " | shape " + std::to_string(heap.object[0] == s.shape ? 0 : heap.object[0] - s.shape);
  for (int64_t v : heap.storage) out += " " + std::to_string(v);
  out += " |";
  for (int i = 2; i < 4; ++i) out += " " + std::to_string(heap.object[i]);
  return out;
}

// Runs `text` through the default pipeline at every fuel level and checks
// that every scenario runs as before; returns the optimized function's
// number of loads (at full fuel).
int CheckAtEveryFuelLevel(const char* text, const std::vector<Scenario>& scenarios) {
  ir::RuntimeRegistry registry;
  auto original = ir::ParseFunction(text, &registry);
  EXPECT_TRUE(original.ok()) << original.status();
  if (!original.ok()) return -1;
  std::vector<std::string> expected;
  for (const Scenario& s : scenarios) expected.push_back(Execute(**original, s));

  // Unlimited fuel first (which counts the rewrites), then every prefix of
  // the rewrite sequence.
  int64_t full_rewrites = 0;
  int loads = 0;
  for (int64_t fuel = -1; fuel < full_rewrites; ++fuel) {
    ir::RuntimeRegistry runtime;
    auto f = ir::ParseFunction(text, &runtime);
    EXPECT_TRUE(f.ok());
    if (!f.ok()) return -1;
    PipelineOptions options;
    options.verify_ir = true;
    options.optimization_fuel = fuel;
    auto pipeline = BuildDefaultPipeline(options);
    EXPECT_TRUE(pipeline.ok());
    if (!pipeline.ok()) return -1;
    auto r = (*pipeline)->Run(**f);
    EXPECT_TRUE(r.ok()) << "fuel " << fuel << ": " << r.status();
    if (!r.ok()) return -1;
    if (fuel == -1) {
      for (const PassStats& stats : (*pipeline)->stats()) full_rewrites += stats.rewrites;
      EXPECT_GT(full_rewrites, 10);
      for (const ir::Block* b : (*f)->blocks()) {
        for (const ir::Instruction* inst : b->instructions()) {
          loads += inst->opcode() == ir::Opcode::kLoad;
        }
      }
    }
    for (size_t k = 0; k < scenarios.size(); ++k) {
      EXPECT_EQ(Execute(**f, scenarios[k]), expected[k])
          << scenarios[k].name << ", fuel " << fuel << "\n"
          << ir::PrintFunction(**f);
    }
  }
  return loads;
}

// Scenarios where the storage is a block of its own (as in SL).
const std::vector<Scenario>& SeparateStorageScenarios() {
  static const auto* scenarios = new std::vector<Scenario>{
      {"all guards hold, x stays small", 1027, 0x1000, false, 1, 2, -1},
      {"all guards hold, x grows past 1000", 1027, 0x1000, false, 999, 5, -1},
      {"the call writes x", 1027, 0x1000, false, 1000, 2, 5000},
      {"the call writes a small x", 1027, 0x1000, false, 1000, 2, 3},
      {"tag check fails", 1025, 0x1000, false, 1, 2, -1},
      {"shape check fails", 1027, 0x2000, false, 1, 2, -1},
  };
  return *scenarios;
}

TEST(MemoryPassesTest, PropertyAccessesKeepTheirMeaningAtEveryFuelLevel) {
  std::vector<Scenario> scenarios = SeparateStorageScenarios();
  scenarios.insert(
      scenarios.end(),
      {
          {"storage aliases the object: the store changes the shape", 1027, 0x1000, true, 0, 1,
           -1},
          {"storage aliases the object: the store keeps the shape", 1027, 0x1000, true, 0, 0, -1},
          {"storage aliases the object: the call restores the shape", 1027, 0x1000, true, 0,
           -5000, 0x1000},
      });
  CheckAtEveryFuelLevel(kAccesses, scenarios);
}

// kAccesses with the alias classes the PE emits (engine/pe/pe_context.h):
// the object's fields and the storage's value slots are disjoint, which is
// true when the storage is a block of its own (not in the aliasing
// scenarios above, which break the claim). The store into the storage then
// keeps the shape and storage-pointer loads: fewer loads remain, and every
// scenario still runs as before at every fuel level.
TEST(MemoryPassesTest, AliasClassesKeepFieldsAcrossSlotStores) {
  std::string classed = kAccesses;
  auto annotate = [&](const std::string& access, const std::string& alias) {
    for (size_t at = classed.find(access); at != std::string::npos;
         at = classed.find(access, at + 1)) {
      size_t eol = classed.find('\n', at);
      if (classed.compare(eol - access.size(), access.size(), access) != 0) continue;
      classed.insert(eol, ", alias \"" + alias + "\"");
    }
  };
  // `load.ptr vN, 0` / `, 8` are the object's shape and storage fields;
  // `load.i64` / `store.i64` are storage slots.
  for (const char* base : {"v5", "v10"}) {
    annotate(std::string(" = load.ptr ") + base + ", 0", "SLObject+0");
    annotate(std::string(" = load.ptr ") + base + ", 8", "SLObject+8");
  }
  for (const char* slot : {"v11, 0", "v17, 16", "v24, 0", "v29, 0", "v45, 16"}) {
    annotate(std::string(" = load.i64 ") + slot, "value slots");
  }
  annotate("store.i64 v19, v24, 0", "value slots");
  ASSERT_NE(classed.find("store.i64 v19, v24, 0, alias \"value slots\""), std::string::npos);
  ASSERT_NE(classed.find("v45 = load.ptr v10, 8, alias \"SLObject+8\""), std::string::npos);
  int unknown_loads = CheckAtEveryFuelLevel(kAccesses, SeparateStorageScenarios());
  int classed_loads = CheckAtEveryFuelLevel(classed.c_str(), SeparateStorageScenarios());
  EXPECT_LT(classed_loads, unknown_loads) << classed;
}

}  // namespace
}  // namespace morel::opt
