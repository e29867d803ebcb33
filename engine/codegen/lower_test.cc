// Target-independent tests of lowering (lower.h) and the deopt map
// (deopt_map.h) on the 4-register toy target: lowered IR runs on the
// machine-IR interpreter before and after register allocation (heavy
// spilling) and must match ir::Interpret, including deopts decoded through
// DeoptMap::Resolve/Decode; the deopt map's structure; Unimplemented cases.

#include "engine/codegen/lower.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/codegen/allocation_verifier.h"
#include "engine/codegen/register_allocator.h"
#include "engine/codegen/testing/mir_interpreter.h"
#include "engine/codegen/testing/random_ir.h"
#include "engine/codegen/testing/toy_target.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

// The toy target with two return registers, as a Backend that only lowers.
class ToyBackend : public Backend {
 public:
  ToyBackend() : ri_(testing::ToyRegisterInfo()) { ri_.return_regs = {0, 1}; }
  absl::string_view name() const override { return "toy"; }
  const RegisterInfo& register_info() const override { return ri_; }
  bool IsLegalImmediate(MOp op, int64_t imm) const override {
    if (op == MOp::kMovImm) return true;
    if (op == MOp::kShl || op == MOp::kSar || op == MOp::kShr) return imm >= 0 && imm < 64;
    return imm >= INT32_MIN && imm <= INT32_MAX;
  }
  absl::StatusOr<CompiledCode> Compile(MachineFunction&, const CompileOptions&,
                                       CodeCache&) override {
    return absl::UnimplementedError("toy");
  }
  absl::StatusOr<const void*> CreateDeoptEntry(DeoptHandler, CodeCache&) override {
    return absl::UnimplementedError("toy");
  }
  absl::StatusOr<std::string> Disassemble(absl::Span<const uint8_t>, uint64_t) const override {
    return absl::UnimplementedError("toy");
  }

 private:
  RegisterInfo ri_;
};

int64_t memory[8];
int64_t Call1(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * 5 - static_cast<uint64_t>(b));
}

// The machine-IR run as an ir::ExecutionResult, decoding a deopt through
// the map (its values become constant locations).
absl::StatusOr<std::string> RunLowered(const LoweredFunction& lowered, const MachineFunction& mf,
                                       const RegisterInfo& ri, const std::vector<int64_t>& in) {
  std::vector<uint64_t> args(in.begin(), in.end());
  absl::StatusOr<testing::MirResult> r = testing::RunMir(mf, ri, args);
  if (!r.ok()) return r.status();
  ir::ExecutionResult result;
  if (r->deopt_id < 0) {
    for (uint64_t v : r->returned) result.values.push_back(static_cast<int64_t>(v));
    return ir::DebugString(result);
  }
  DeoptMap map = lowered.deopt_map;
  CodeMetadata metadata;
  for (const DeoptEntry& e : map.entries()) {
    DeoptPoint p;
    p.id = e.id;
    p.values.resize(e.num_values);
    if (e.id == static_cast<uint32_t>(r->deopt_id)) {
      for (size_t i = 0; i < r->deopt_values.size(); ++i) {
        p.values[i] = {ValueLocation::Kind::kConstant, static_cast<int64_t>(r->deopt_values[i])};
      }
    }
    metadata.deopt_points.push_back(p);
  }
  absl::Status s = map.Resolve(metadata);
  if (!s.ok()) return s;
  absl::StatusOr<DecodedDeopt> d = map.Decode(r->deopt_id, nullptr, nullptr);
  if (!d.ok()) return d.status();
  result.kind = ir::ExecutionResult::Kind::kDeoptimized;
  result.reason = d->reason;
  result.action = d->action;
  result.frames = d->frames;
  result.objects = d->objects;
  return ir::DebugString(result);
}

// `alloc` for the machine-IR interpreter and ir::Interpret alike: zeroed
// memory, kept until the process ends.
void* ZeroedObject(int64_t bytes) {
  static auto* objects = new std::vector<std::unique_ptr<uint64_t[]>>();
  objects->push_back(std::make_unique<uint64_t[]>(static_cast<size_t>(bytes / 8 + 1)));
  return objects->back().get();
}

// Seeds 1..300, with or without objects (alloc, virtual objects in deopt
// states).
void RunRandomFunctions(bool objects) {
  ToyBackend backend;
  ir::RuntimeRegistry registry;
  auto call1 = registry.Register({"call1", reinterpret_cast<const void*>(&Call1),
                                  {{ir::Type::kI64, ir::Type::kI64}, {ir::Type::kI64}},
                                  ir::RuntimeEffects::kNoDeopt});
  ASSERT_TRUE(call1.ok());
  testing::RandomIrOptions gen;
  gen.call1 = *call1;
  gen.memory = memory;
  gen.objects = objects;
  LoweringOptions options;
  options.heap.allocate = reinterpret_cast<const void*>(&ZeroedObject);
  ir::InterpreterOptions hooks;
  hooks.allocate = &ZeroedObject;
  hooks.call_runtime = [](const ir::RuntimeFunction&, absl::Span<const int64_t> a)
      -> absl::StatusOr<std::vector<int64_t>> { return std::vector<int64_t>{Call1(a[0], a[1])}; };
  const std::vector<std::vector<int64_t>> inputs = {
      {0, 0, 0}, {1, 2, 3}, {-1, 5, 1}, {INT64_MAX, 1, -7}, {INT64_MIN, -1, 64}, {42, 12345, 5}};
  int runs = 0, deopts = 0, spilled = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    auto f = testing::RandomFunction(seed, gen);
    ASSERT_TRUE(ir::Verify(*f).ok()) << ir::Verify(*f);
    auto lowered = Lower(*f, backend, options);
    ASSERT_TRUE(lowered.ok()) << lowered.status();
    MachineFunction allocated = lowered->mf;
    auto alloc = AllocateRegisters(allocated, backend.register_info());
    ASSERT_TRUE(alloc.ok()) << "seed " << seed << ": " << alloc.status() << "\n"
                            << lowered->mf.Dump();
    spilled += alloc->num_spilled > 0;
    absl::Status verified = VerifyAllocation(allocated, backend.register_info());
    ASSERT_TRUE(verified.ok()) << "seed " << seed << ": " << verified << "\n"
                               << ir::PrintFunction(*f) << lowered->mf.Dump()
                               << allocated.Dump(&backend.register_info().names);
    for (const auto& in : inputs) {
      for (int i = 0; i < 8; ++i) memory[i] = i;
      auto want = ir::Interpret(*f, in, hooks);
      ASSERT_TRUE(want.ok()) << want.status();
      const std::string expected = ir::DebugString(*want);
      const MachineFunction* both[] = {&lowered->mf, &allocated};
      for (const MachineFunction* mf : both) {
        for (int i = 0; i < 8; ++i) memory[i] = i;
        auto got = RunLowered(*lowered, *mf, backend.register_info(), in);
        ASSERT_TRUE(got.ok()) << got.status();
        ASSERT_EQ(*got, expected) << "seed " << seed << (mf == &allocated ? " allocated" : "")
                                  << "\n" << ir::PrintFunction(*f) << mf->Dump();
        ++runs;
      }
      deopts += want->kind == ir::ExecutionResult::Kind::kDeoptimized;
    }
  }
  EXPECT_GT(deopts, 50);
  EXPECT_GT(spilled, 200);  // four registers: most functions spill
  EXPECT_GT(runs, 3000);
}

TEST(LowerTest, RandomIrOnTheMirInterpreterBeforeAndAfterAllocation) {
  RunRandomFunctions(/*objects=*/false);
}

TEST(LowerTest, RandomIrWithObjectsOnTheMirInterpreter) { RunRandomFunctions(/*objects=*/true); }

// The toy dispatcher: a hash of the call's operands (read from the
// caller's outgoing-argument area) and their count.
uint64_t ToyDispatch(uint64_t id, uint64_t operands, uint64_t count) {
  const auto* words = reinterpret_cast<const uint64_t*>(operands);
  uint64_t h = id * 31 + count;
  for (uint64_t i = 0; i < count; ++i) h = (h ^ words[i]) * 1099511628211ull;
  return h;
}

TEST(LowerTest, CallTargetOperandsGoThroughTheOutgoingArea) {
  ToyBackend backend;
  ir::InterpreterOptions hooks;
  hooks.call_target = [](int64_t id, absl::Span<const int64_t> a)
      -> absl::StatusOr<std::vector<int64_t>> {
    std::vector<uint64_t> words(a.begin(), a.end());
    return std::vector<int64_t>{static_cast<int64_t>(
        ToyDispatch(static_cast<uint64_t>(id), reinterpret_cast<uint64_t>(words.data()),
                    words.size()))};
  };
  LoweringOptions options;
  options.call_target_dispatch = reinterpret_cast<const void*>(&ToyDispatch);
  // 0..15 operands (7 guest arguments and more) from values live across
  // the calls and constants, on a target with 3 argument registers.
  for (int n = 0; n <= 15; ++n) {
    std::string text = "func @f(i64, i64, i64) -> (i64) {\nblock0(v0: i64, v1: i64, v2: i64):\n";
    std::string operands;
    for (int k = 0; k < n; ++k) {
      text += "  v" + std::to_string(3 + k) + " = ";
      text += k % 3 == 2 ? "iconst.i64 " + std::to_string(100 + k)
                         : "iadd v" + std::to_string(k % 3) + ", v" + std::to_string(2 - k % 3);
      text += "\n";
      operands += (k > 0 ? ", v" : "v") + std::to_string(3 + k);
    }
    const int r = 3 + n;
    text += "  v" + std::to_string(r) + " = call_target @5(" + operands + ") -> (i64)\n";
    text += "  v" + std::to_string(r + 1) + " = call_target @6(" + operands + ") -> (i64)\n";
    text += "  v" + std::to_string(r + 2) + " = xor v" + std::to_string(r) + ", v" +
            std::to_string(r + 1) + "\n";
    text += "  v" + std::to_string(r + 3) + " = iadd v" + std::to_string(r + 2) + ", v0\n";
    text += "  return v" + std::to_string(r + 3) + "\n}\n";
    ir::RuntimeRegistry registry;
    auto f = ir::ParseFunction(text, &registry);
    ASSERT_TRUE(f.ok()) << f.status() << "\n" << text;
    ASSERT_TRUE(ir::Verify(**f).ok()) << ir::Verify(**f);
    auto lowered = Lower(**f, backend, options);
    ASSERT_TRUE(lowered.ok()) << lowered.status();
    EXPECT_EQ(lowered->mf.outgoing_area_words(), static_cast<uint32_t>(n));
    for (bool spill : {false, true}) {
      MachineFunction allocated = lowered->mf;
      AllocationOptions allocation;
      allocation.spill_everything = spill;
      auto alloc = AllocateRegisters(allocated, backend.register_info(), allocation);
      ASSERT_TRUE(alloc.ok()) << alloc.status();
      ASSERT_TRUE(VerifyAllocation(allocated, backend.register_info()).ok());
      for (const std::vector<int64_t>& in :
           std::vector<std::vector<int64_t>>{{1, 2, 3}, {-7, INT64_MAX, 0}}) {
        auto want = ir::Interpret(**f, in, hooks);
        ASSERT_TRUE(want.ok()) << want.status();
        for (const MachineFunction* mf : {&lowered->mf, &allocated}) {
          auto got = RunLowered(*lowered, *mf, backend.register_info(), in);
          ASSERT_TRUE(got.ok()) << got.status();
          EXPECT_EQ(*got, ir::DebugString(*want)) << n << " operands, spill " << spill << "\n"
                                                  << mf->Dump();
        }
      }
    }
  }
}

TEST(LowerTest, DeoptMapDescribesEveryFrame) {
  ir::RuntimeRegistry registry;
  auto f = ir::ParseFunction(R"(func @g(i64, i64) -> (i64) {
  fs0 = eager interpreter target 7 resume 3 locals [v0:v1, illegal, v2:v3] stack [v3:v0] parent fs1
  fs1 = lazy interpreter target 2 resume 9 locals [v1:v1] stack []
block0(v0: i64, v1: i64):
  v2 = iadd v0, v1
  v3 = iconst.i64 -5
  v4 = icmp slt v2, v3
  guard v4, fs0, "too small"
  return v2
}
)", &registry);
  ASSERT_TRUE(f.ok()) << f.status();
  ToyBackend backend;
  auto lowered = Lower(**f, backend);
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  ASSERT_EQ(lowered->deopt_map.entries().size(), 1u);
  const DeoptEntry& e = lowered->deopt_map.entries()[0];
  EXPECT_EQ(e.cause, DeoptEntry::Cause::kGuard);
  EXPECT_EQ(e.kind, ir::DeoptKind::kEager);
  EXPECT_EQ(e.reason, "too small");
  ASSERT_EQ(e.frames.size(), 2u);
  EXPECT_EQ(e.frames[0].call_target_id, 7);
  EXPECT_EQ(e.frames[0].resume_point, 3);
  EXPECT_EQ(e.frames[1].call_target_id, 2);
  EXPECT_EQ(e.frames[1].kind, ir::DeoptKind::kLazy);
  const std::vector<DeoptSlotDesc> locals = {{true, 0, 1}, {}, {true, 2, 3}};
  EXPECT_EQ(e.frames[0].locals, locals);
  EXPECT_EQ(e.frames[0].stack, (std::vector<DeoptSlotDesc>{{true, 4, 5}}));
  EXPECT_EQ(e.frames[1].locals, (std::vector<DeoptSlotDesc>{{true, 6, 7}}));
  EXPECT_EQ(e.num_values, 8u);
  // The constant is an immediate in the state; the compare is fused into
  // the exit (no cmpset).
  const DeoptState& st = lowered->mf.deopt_states()[0];
  EXPECT_TRUE(st.values[3].is_imm());
  EXPECT_EQ(st.values[3].imm, -5);
  const std::string mir = lowered->mf.Dump();
  EXPECT_EQ(mir.find("cmpset"), std::string::npos) << mir;
  EXPECT_NE(mir.find("deopt.if.ge"), std::string::npos) << mir;
  EXPECT_NE(lowered->deopt_map.DebugString().find("#0 guard eager \"too small\""),
            std::string::npos)
      << lowered->deopt_map.DebugString();
  // Decoding needs Resolve, and knows its ids.
  EXPECT_EQ(lowered->deopt_map.Decode(0, nullptr, nullptr).status().code(),
            absl::StatusCode::kFailedPrecondition);
  DeoptMap map = lowered->deopt_map;
  EXPECT_FALSE(map.Resolve(CodeMetadata{}).ok());  // the point is missing
}

TEST(LowerTest, DeoptMapKeepsEachExitsDeoptAction) {
  ir::RuntimeRegistry registry;
  auto f = ir::ParseFunction(R"(func @h(i64) -> (i64) {
  fs0 = eager interpreter target 1 resume 0 locals [v0:v0] stack []
block0(v0: i64):
  v1 = iconst.i64 0
  v2 = icmp sge v0, v1
  guard v2, fs0, "negative", keep_code
  v3 = icmp ne v0, v1
  guard v3, fs0, "zero"
  v4 = icmp slt v0, v1
  br v4, block1, block2
block1:
  deopt fs0, "transfer", keep_code
block2:
  return v0
}
)", &registry);
  ASSERT_TRUE(f.ok()) << f.status();
  ToyBackend backend;
  auto lowered = Lower(**f, backend);
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  std::map<std::string, ir::DeoptAction> actions;
  for (const DeoptEntry& e : lowered->deopt_map.entries()) actions[e.reason] = e.action;
  EXPECT_EQ(actions["negative"], ir::DeoptAction::kKeepCode);
  EXPECT_EQ(actions["zero"], ir::DeoptAction::kInvalidate);
  EXPECT_EQ(actions["transfer"], ir::DeoptAction::kKeepCode);
  const std::string dump = lowered->deopt_map.DebugString();
  EXPECT_NE(dump.find("guard eager \"negative\" keep_code:"), std::string::npos) << dump;
  EXPECT_NE(dump.find("guard eager \"zero\":"), std::string::npos) << dump;
  // Decoded the same way as the IR interpreter reports it.
  for (int64_t x : {-3, 0}) {
    auto want = ir::Interpret(**f, {x});
    ASSERT_TRUE(want.ok()) << want.status();
    auto got = RunLowered(*lowered, lowered->mf, backend.register_info(), {x});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, ir::DebugString(*want)) << x;
  }
}

// A slot naming a virtual object has an object index instead of a payload
// value; the entry lists the objects in the interpreter's numbering, their
// field values among the point's values (constants as constants).
TEST(LowerTest, DeoptMapListsVirtualObjects) {
  ir::RuntimeRegistry registry;
  auto f = ir::ParseFunction(R"(func @v(i64, i64) -> (i64) {
  vo0 = object 16 [0: i64 v1, 8: ptr vo1]
  vo1 = object 24 [0: ptr vo0, 16: i64 v2]
  fs0 = eager interpreter target 1 resume 0 locals [vo1:v0, v0:v1] stack [vo0:v0]
block0(v0: i64, v1: i64):
  v2 = iconst.i64 7
  v3 = icmp slt v0, v1
  guard v3, fs0, "objects"
  return v0
}
)", &registry);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(ir::Verify(**f).ok()) << ir::Verify(**f);
  ToyBackend backend;
  auto lowered = Lower(**f, backend);
  ASSERT_TRUE(lowered.ok()) << lowered.status();
  ASSERT_EQ(lowered->deopt_map.entries().size(), 1u);
  const DeoptEntry& e = lowered->deopt_map.entries()[0];
  // Values: vo1's first use (vo1.0 names vo0: vo0's v1, then vo1's 7), the
  // slot's tag v0, then v0:v1, then vo0 again (no values) and its tag.
  EXPECT_EQ(e.num_values, 6u);
  ASSERT_EQ(e.objects.size(), 2u);
  EXPECT_EQ(e.frames[0].locals[0], (DeoptSlotDesc{true, -1, 2, 0}));
  EXPECT_EQ(e.frames[0].stack[0], (DeoptSlotDesc{true, -1, 5, 1}));
  EXPECT_EQ(e.objects[0], (DeoptObjectDesc{24, {{0, ir::Type::kPtr, -1, 1},
                                                {16, ir::Type::kI64, 1, -1}}}));
  EXPECT_EQ(e.objects[1], (DeoptObjectDesc{16, {{0, ir::Type::kI64, 0, -1},
                                                {8, ir::Type::kPtr, -1, 0}}}));
  const std::string dump = lowered->deopt_map.DebugString();
  EXPECT_NE(dump.find("locals (o0:2, 3:4) stack (o1:5)] o0 = object 24 [0: ptr o1, 16: i64 1]"
                      " o1 = object 16 [0: i64 0, 8: ptr o0]"),
            std::string::npos)
      << dump;
  for (int64_t x : {-3, 9}) {
    auto want = ir::Interpret(**f, {x, 4});
    ASSERT_TRUE(want.ok()) << want.status();
    auto got = RunLowered(*lowered, lowered->mf, backend.register_info(), {x, 4});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, ir::DebugString(*want)) << x;
  }
}

TEST(LowerTest, UnimplementedNamesTheOpcode) {
  ir::RuntimeRegistry registry;
  ToyBackend backend;
  for (const char* text : {R"(func @f(i64) -> (i64) {
block0(v0: i64):
  v1 = bitcast.f64 v0
  v2 = fmul v1, v1
  v3 = bitcast.i64 v2
  return v3
}
)", R"(func @f(ptr, i32) -> () {
block0(v0: ptr, v1: i32):
  store.i32 v1, v0, 0
  return
}
)", R"(func @f(i64, i64, i64, i64) -> (i64) {
block0(v0: i64, v1: i64, v2: i64, v3: i64):
  return v3
}
)"}) {
    auto f = ir::ParseFunction(text, &registry);
    ASSERT_TRUE(f.ok()) << f.status();
    auto lowered = Lower(**f, backend);
    EXPECT_EQ(lowered.status().code(), absl::StatusCode::kUnimplemented) << lowered.status();
  }
}

}  // namespace
}  // namespace morel::codegen
