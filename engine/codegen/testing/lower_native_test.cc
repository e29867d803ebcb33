// Differential tests of IR -> native code (engine/codegen/compile.h) against
// ir::Interpret: control flow with block parameters and loops, calls into
// C++ runtime functions and through the call_target dispatcher (or directly
// into other compiled IR), guards and deopts whose decoded frames must equal
// the interpreter's, overflow deopts, register pressure across calls and in
// deopt states, memory, the stack check, lazy deopt states, what is not
// implemented, and a disassembly of lowered code.

#include <atomic>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
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

using codegen::ValuePair;
using ir::Opcode;
using ir::Type;
using ir::Value;
using testing::IrHarness;

// ------------------------------------------------- runtime functions (C++)
int64_t rt_counter = 0;
int64_t RtMix(int64_t a, int64_t b, int64_t c) {  // wrapping, like the IR
  return static_cast<int64_t>(static_cast<uint64_t>(a) + 2 * static_cast<uint64_t>(b) +
                              3 * static_cast<uint64_t>(c));
}
ValuePair RtPair(int64_t a, int64_t b) {
  return {static_cast<uint64_t>(a ^ b), static_cast<uint64_t>(a) - static_cast<uint64_t>(b)};
}
void RtBump(int64_t by) {
  rt_counter = static_cast<int64_t>(static_cast<uint64_t>(rt_counter) + static_cast<uint64_t>(by));
}
int32_t RtTimes7(int64_t a) { return static_cast<int32_t>(static_cast<uint32_t>(a) * 7u); }
bool RtIsOdd(int64_t a) { return (a & 1) != 0; }

class LowerNativeTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.status();
    auto reg = [&](const char* name, const void* address, std::vector<Type> params,
                   std::vector<Type> results, ir::RuntimeEffects effects) {
      ASSERT_TRUE(registry_.Register({name, address, {params, results}, effects}).ok());
    };
    const auto k = ir::RuntimeEffects::kNoDeopt;
    reg("mix", reinterpret_cast<const void*>(&RtMix), {Type::kI64, Type::kI64, Type::kI64},
        {Type::kI64}, k);
    reg("pair", reinterpret_cast<const void*>(&RtPair), {Type::kI64, Type::kI64},
        {Type::kI64, Type::kI64}, ir::RuntimeEffects::kMayDeopt);
    reg("bump", reinterpret_cast<const void*>(&RtBump), {Type::kI64}, {}, k);
    reg("times7", reinterpret_cast<const void*>(&RtTimes7), {Type::kI64}, {Type::kI32}, k);
    reg("is_odd", reinterpret_cast<const void*>(&RtIsOdd), {Type::kI64}, {Type::kI1}, k);
    reg("declared_only", nullptr, {}, {}, k);
  }

  std::unique_ptr<ir::Function> Parse(const char* text) {
    auto f = ir::ParseFunction(text, &registry_);
    EXPECT_TRUE(f.ok()) << f.status();
    if (!f.ok()) return nullptr;
    absl::Status v = ir::Verify(**f);
    EXPECT_TRUE(v.ok()) << v;
    return std::move(*f);
  }

  // Native (linear scan, and spill-everything) == interpreter on each input.
  // Returns how many runs deoptimized.
  int ExpectSame(const ir::Function& f, const std::vector<std::vector<int64_t>>& inputs,
                 codegen::NativeCompileOptions options) {
    int deopts = 0;
    for (bool spill : {false, true}) {
      options.codegen.allocation.spill_everything = spill;
      options.keep_machine_ir_dump = true;
      auto native = h_.Compile(f, options);
      EXPECT_TRUE(native.ok()) << native.status() << "\n" << ir::PrintFunction(f);
      if (!native.ok()) return deopts;
      for (const auto& in : inputs) {
        rt_counter = 0;
        auto want = ir::Interpret(f, in, testing::NativeEquivalentHooks());
        const int64_t want_counter = rt_counter;
        rt_counter = 0;
        auto got = (*native)->Run(in);
        EXPECT_EQ(rt_counter, want_counter);
        if (!want.ok()) {
          EXPECT_EQ(got.status().code(), want.status().code()) << want.status();
          continue;
        }
        EXPECT_TRUE(got.ok()) << got.status();
        if (!got.ok()) continue;
        EXPECT_EQ(ir::DebugString(*got), ir::DebugString(*want))
            << "spill " << spill << " input " << ::testing::PrintToString(in) << "\n"
            << ir::PrintFunction(f) << (*native)->compiled().machine_ir;
        if (got->kind == ir::ExecutionResult::Kind::kDeoptimized) ++deopts;
      }
    }
    return deopts;
  }
  int ExpectSame(const ir::Function& f, const std::vector<std::vector<int64_t>>& inputs) {
    return ExpectSame(f, inputs, h_.DefaultOptions());
  }

  std::string MachineIr(const ir::Function& f) {
    auto lowered = codegen::Lower(f, h_.backend(), h_.DefaultOptions().lowering);
    EXPECT_TRUE(lowered.ok()) << lowered.status();
    return lowered.ok() ? lowered->mf.Dump() : "";
  }

  ir::RuntimeRegistry registry_;
  IrHarness h_{GetParam()};
};

const std::vector<std::vector<int64_t>> kPairs = {
    {0, 0}, {1, 2}, {10, 3}, {-5, 7}, {100, -1}, {INT64_MAX, 1}, {INT64_MIN, -1}, {40, 40}};

TEST_P(LowerNativeTest, LoopsWithBlockParametersAndSwaps) {
  // Fibonacci-style loop: (i, a, b) -> (i + 1, b, a + b), a parameter passed
  // to another parameter's position (parallel copy), a back edge from a br
  // with arguments (split edge), and a nested counting loop.
  auto f = Parse(R"(func @loops(i64, i64) -> (i64, i64) {
block0(v0: i64, v1: i64):
  v2 = iconst.i64 0
  v3 = iconst.i64 1
  jump block1(v2, v2, v3)
block1(v4: i64, v5: i64, v6: i64):
  v7 = icmp slt v4, v0
  br v7, block2, block3(v5, v6)
block2:
  v8 = iadd v5, v6
  v9 = iadd v4, v3
  jump block4(v2, v8)
block4(v10: i64, v11: i64):
  v12 = iadd v11, v1
  v13 = iadd v10, v3
  v14 = icmp ult v13, v4
  br v14, block4(v13, v12), block5
block5:
  v15 = icmp slt v9, v0
  br v15, block1(v9, v6, v11), block3(v6, v11)
block3(v16: i64, v17: i64):
  v18 = xor v16, v17
  return v18, v16
}
)");
  ASSERT_NE(f, nullptr);
  ExpectSame(*f, {{0, 0}, {1, 0}, {5, 0}, {10, 3}, {40, -2}, {90, 1}, {-3, 4}});
}

TEST_P(LowerNativeTest, BranchToTheSameBlockWithDifferentArguments) {
  auto f = Parse(R"(func @same(i64, i64) -> (i64) {
block0(v0: i64, v1: i64):
  v2 = icmp sgt v0, v1
  br v2, block1(v0, v1), block1(v1, v0)
block1(v3: i64, v4: i64):
  v5 = isub v3, v4
  v6 = zext.i64 v2
  v7 = iadd v5, v6
  return v7
}
)");
  ASSERT_NE(f, nullptr);
  ExpectSame(*f, kPairs);
}

TEST_P(LowerNativeTest, GuardsDeoptimizeWithInlinedFrames) {
  auto f = Parse(R"(func @guards(i64, i64) -> (i64) {
  fs0 = eager interpreter target 7 resume 3 locals [v0:v1, illegal, v2:v3] stack [v4:v1] parent fs1
  fs1 = eager interpreter target 2 resume 9 locals [v1:v0] stack []
  fs2 = eager interpreter target 7 resume 4 locals [v2:v4] stack [v3:v3]
block0(v0: i64, v1: i64):
  v2 = iadd v0, v1
  v3 = iconst.i64 5
  v4 = imul v0, v3
  v5 = icmp slt v2, v3
  guard v5, fs0, "sum too big"
  v6 = iadd v2, v4
  v7 = iadd_overflows v2, v4
  v8 = not v7
  guard v8, fs2, "overflow"
  return v6
}
)");
  ASSERT_NE(f, nullptr);
  const int64_t big = INT64_MAX / 5;
  int deopts = ExpectSame(*f, {{1, 2}, {10, 0}, {-3, 1}, {big, -big + 4}, {big, -big}, {0, 0}});
  EXPECT_EQ(deopts, 2 * 2);  // {10,0} and the overflow, in both allocation modes
  // The overflow check is fused into the add that defines v6.
  std::string mir = MachineIr(*f);
  EXPECT_NE(mir.find("add.ovf"), std::string::npos) << mir;
  EXPECT_EQ(mir.find("shr"), std::string::npos) << mir;
}

TEST_P(LowerNativeTest, FusedSubAndMulOverflowDeopts) {
  auto f = Parse(R"(func @ovf(i64, i64) -> (i64, i64) {
  fs0 = eager interpreter target 1 resume 1 locals [v0:v1] stack []
  fs1 = eager interpreter target 1 resume 2 locals [v0:v1, v2:v2] stack []
block0(v0: i64, v1: i64):
  v2 = isub v0, v1
  v3 = isub_overflows v0, v1
  v4 = not v3
  guard v4, fs0, "sub overflow"
  v5 = imul v1, v2
  v6 = imul_overflows v2, v1
  v7 = not v6
  guard v7, fs1, "mul overflow"
  v8 = iconst.i64 7
  v9 = iadd_overflows v8, v5
  v10 = not v9
  guard v10, fs1, "add overflow, no iadd to fuse"
  return v2, v5
}
)");
  ASSERT_NE(f, nullptr);
  int deopts = ExpectSame(*f, {{1, 2}, {INT64_MIN, 1}, {INT64_MAX, -1}, {1LL << 40, 1LL << 30},
                               {-4, 3}, {INT64_MAX - 6, 1}, {2, INT64_MAX / 2 + 1}});
  EXPECT_GE(deopts, 2 * 3);
  std::string mir = MachineIr(*f);
  EXPECT_NE(mir.find("sub.ovf"), std::string::npos) << mir;
  EXPECT_NE(mir.find("mul.ovf"), std::string::npos) << mir;
  EXPECT_NE(mir.find("add.ovf"), std::string::npos) << mir;
}

TEST_P(LowerNativeTest, DeoptTerminatorAndUnreachable) {
  auto f = Parse(R"(func @ends(i64) -> (i64) {
  fs0 = eager interpreter target 1 resume 2 locals [v0:v0, illegal] stack [v4:v0]
block0(v0: i64):
  v1 = iconst.i64 0
  v4 = iconst.i64 -9
  v2 = icmp eq v0, v1
  br v2, block1, block2
block1:
  deopt fs0, "transfer to interpreter"
block2:
  v3 = icmp eq v0, v4
  br v3, block3, block4
block3:
  unreachable
block4:
  safepoint fs0
  return v0
}
)");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(ExpectSame(*f, {{0}, {5}, {-9}}), 2);
}

// A loop whose back edge polls the safepoint word: clear, the loop runs to
// its end; set, the first poll leaves at the safepoint's frame state with
// reason "safepoint" and the code kept -- as the IR interpreter does when it
// polls the same word.
TEST_P(LowerNativeTest, SafepointPollsTheSafepointWord) {
  auto f = Parse(R"(func @count(i64) -> (i64) {
  fs0 = eager interpreter target 3 resume 5 locals [v1:v2, v3:v2] stack []
block0(v0: i64):
  v2 = iconst.i64 1
  v9 = iconst.i64 0
  jump block1(v9, v0)
block1(v1: i64, v3: i64):
  v4 = icmp sge v1, v3
  br v4, block3, block2
block2:
  v5 = iadd v1, v2
  safepoint fs0
  jump block1(v5, v3)
block3:
  return v1
}
)");
  ASSERT_NE(f, nullptr);
  std::atomic<int64_t> word{0};
  codegen::NativeCompileOptions options = h_.DefaultOptions();
  options.lowering.safepoint_word = &word;
  auto native = h_.Compile(*f, options);
  ASSERT_TRUE(native.ok()) << native.status();
  ir::InterpreterOptions hooks = testing::NativeEquivalentHooks();
  hooks.safepoint_word = &word;
  for (int64_t set : {0, 1}) {
    word.store(set);
    auto want = ir::Interpret(*f, {100}, hooks);
    auto got = (*native)->Run({100});
    ASSERT_TRUE(want.ok() && got.ok());
    EXPECT_EQ(ir::DebugString(*got), ir::DebugString(*want));
    if (set == 0) {
      EXPECT_EQ(got->kind, ir::ExecutionResult::Kind::kReturned);
      EXPECT_EQ(got->values, std::vector<int64_t>{100});
    } else {
      ASSERT_EQ(got->kind, ir::ExecutionResult::Kind::kDeoptimized);
      EXPECT_EQ(got->reason, "safepoint");
      EXPECT_EQ(got->action, ir::DeoptAction::kKeepCode);
      ASSERT_EQ(got->frames.size(), 1u);
      EXPECT_EQ(got->frames[0].resume_point, 5);
    }
  }
  // Without a word the safepoint emits nothing: a set word is not seen.
  options.lowering.safepoint_word = nullptr;
  auto unpolled = h_.Compile(*f, options);
  ASSERT_TRUE(unpolled.ok()) << unpolled.status();
  auto ran = (*unpolled)->Run({100});
  ASSERT_TRUE(ran.ok());
  EXPECT_EQ(ran->kind, ir::ExecutionResult::Kind::kReturned);
  word.store(0);
}

TEST_P(LowerNativeTest, RuntimeCallsWithValuesLiveAcross) {
  auto f = Parse(R"(func @calls(i64, i64) -> (i64, i64) {
  fs0 = lazy interpreter target 4 resume 8 locals [v0:v1, v2:v2] stack []
block0(v0: i64, v1: i64):
  v2 = iadd v0, v1
  v3 = call_runtime @mix(v0, v1, v2) -> (i64)
  v4, v5 = call_runtime @pair(v3, v0) -> (i64, i64), fs0
  call_runtime @bump(v2) -> ()
  v6 = call_runtime @times7(v4) -> (i32)
  v7 = sext.i64 v6
  v8 = call_runtime @is_odd(v5) -> (i1)
  v9 = zext.i64 v8
  v10 = iadd v7, v9
  v11 = iadd v10, v2
  v12 = iadd v11, v0
  return v12, v1
}
)");
  ASSERT_NE(f, nullptr);
  ExpectSame(*f, kPairs);
}

TEST_P(LowerNativeTest, CallTargetThroughTheDispatcher) {
  auto f = Parse(R"(func @ct(i64, i64) -> (i64, i64) {
block0(v0: i64, v1: i64):
  v2, v3 = call_target @1(v0, v1) -> (i64, i64)
  v4, v5 = call_target @2(v2, v3, v0) -> (i64, i64)
  v6 = iconst.i64 99
  v7, v8 = call_target @3(v4, v5, v6, v1, v2) -> (i64, i64)
  v9 = iadd v7, v0
  v10 = xor v8, v1
  return v9, v10
}
)");
  ASSERT_NE(f, nullptr);
  ExpectSame(*f, kPairs);
}

// call_target with n guest arguments (2n operands: payload, tag) for every
// n the partial evaluator emits (0..7), and more: computed values and
// constants, values live across the calls, two calls sharing the
// outgoing-argument area (the second passes the operands reversed), and a
// lazy frame state on the second call.
std::string CallWithOperandsText(int num_operands) {
  std::string t = absl::StrCat("func @call", num_operands,
                               "(i64, i64) -> (i64, i64) {\n"
                               "  fs0 = lazy interpreter target 9 resume 2 locals [v0:v1] stack []\n"
                               "block0(v0: i64, v1: i64):\n");
  int next = 2;
  std::vector<std::string> ops;
  for (int k = 0; k < num_operands; ++k) {
    if (k % 4 == 3) {
      absl::StrAppend(&t, "  v", next, " = iconst.i64 ", 1000 + k, "\n");
      ops.push_back(absl::StrCat("v", next++));
    } else {
      absl::StrAppend(&t, "  v", next, " = iconst.i64 ", 7 * k + 1, "\n");
      absl::StrAppend(&t, "  v", next + 1, " = ", k % 2 == 0 ? "iadd" : "xor", " v", k % 3 == 0 ? 0 : 1,
                      ", v", next, "\n");
      ops.push_back(absl::StrCat("v", next + 1));
      next += 2;
    }
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) absl::StrAppend(&out, i > 0 ? ", " : "", v[i]);
    return out;
  };
  std::vector<std::string> reversed(ops.rbegin(), ops.rend());
  const int live = next++;
  absl::StrAppend(&t, "  v", live, " = imul v0, v1\n");
  const int r = next;
  next += 4;
  absl::StrAppend(&t, "  v", r, ", v", r + 1, " = call_target @4(", list(ops), ") -> (i64, i64)\n");
  absl::StrAppend(&t, "  v", r + 2, ", v", r + 3, " = call_target @4(", list(reversed),
                  ") -> (i64, i64), fs0\n");
  absl::StrAppend(&t, "  v", next, " = xor v", r, ", v", r + 2, "\n");
  absl::StrAppend(&t, "  v", next + 1, " = iadd v", next, ", v", live, "\n");
  absl::StrAppend(&t, "  v", next + 2, " = iadd v", r + 1, ", v", r + 3, "\n");
  absl::StrAppend(&t, "  return v", next + 1, ", v", next + 2, "\n}\n");
  return t;
}

TEST_P(LowerNativeTest, CallTargetWithAnyNumberOfOperands) {
  for (int n = 0; n <= 7; ++n) {
    for (int operands : {2 * n, 2 * n + 1}) {
      SCOPED_TRACE(::testing::Message() << operands << " operands");
      const std::string text = CallWithOperandsText(operands);
      auto f = Parse(text.c_str());
      ASSERT_NE(f, nullptr) << text;
      ExpectSame(*f, kPairs);
      // The dispatcher saw every operand: (hash, count) with count = operands.
      auto r = ir::Interpret(*f, {3, 4}, testing::NativeEquivalentHooks());
      ASSERT_TRUE(r.ok());
      ASSERT_EQ(r->values.size(), 2u);
      EXPECT_EQ(r->values[1], 2 * operands);
    }
  }
  // The operands are stored in the outgoing-argument area, whose address is
  // the second argument of the dispatcher.
  auto f = Parse(CallWithOperandsText(3).c_str());
  ASSERT_NE(f, nullptr);
  const std::string mir = MachineIr(*f);
  EXPECT_NE(mir.find("outgoing.area"), std::string::npos) << mir;
  EXPECT_NE(mir.find("store"), std::string::npos) << mir;
}

TEST_P(LowerNativeTest, DirectCallsBetweenCompiledFunctions) {
  // The callee is compiled IR; the caller calls its code directly (the
  // resolver), and the interpreter's call_target hook interprets the callee.
  auto callee = Parse(R"(func @callee(i64, i64) -> (i64, i64) {
  fs0 = eager interpreter target 20 resume 1 locals [v0:v1] stack []
block0(v0: i64, v1: i64):
  v2 = iconst.i64 1000
  v3 = icmp slt v0, v2
  guard v3, fs0, "callee guard"
  v4 = imul v0, v1
  v5 = iadd v4, v2
  return v5, v1
}
)");
  auto caller = Parse(R"(func @caller(i64, i64) -> (i64) {
block0(v0: i64, v1: i64):
  v2, v3 = call_target @20(v0, v1) -> (i64, i64)
  v4, v5 = call_target @20(v2, v0) -> (i64, i64)
  v6 = iadd v4, v3
  v7 = iadd v6, v5
  return v7
}
)");
  ASSERT_NE(callee, nullptr);
  ASSERT_NE(caller, nullptr);
  auto native_callee = h_.Compile(*callee);
  ASSERT_TRUE(native_callee.ok()) << native_callee.status();
  codegen::NativeCompileOptions options = h_.DefaultOptions();
  const void* callee_entry = (*native_callee)->compiled().entry;
  options.lowering.resolve_call_target = [&](int64_t id) {
    return id == 20 ? callee_entry : nullptr;
  };
  options.lowering.call_target_dispatch = nullptr;
  auto native_caller = h_.Compile(*caller, options);
  ASSERT_TRUE(native_caller.ok()) << native_caller.status();
  ir::InterpreterOptions hooks;
  hooks.call_target = [&](int64_t, absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> {
    auto r = ir::Interpret(*callee, args);
    if (!r.ok()) return r.status();
    // A deopting callee "finishes in the interpreter" with (0, 0), as the
    // test deopt handler makes the native callee return.
    if (r->kind == ir::ExecutionResult::Kind::kDeoptimized) return std::vector<int64_t>{0, 0};
    return r->values;
  };
  const int64_t inner_before = testing::InnerDeoptCount();
  for (const auto& in : std::vector<std::vector<int64_t>>{{1, 2}, {7, 100}, {2000, 1}, {-4, 9}}) {
    auto want = ir::Interpret(*caller, in, hooks);
    ASSERT_TRUE(want.ok());
    auto got = (*native_caller)->Run(in);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(ir::DebugString(*got), ir::DebugString(*want));
  }
  // (1, 2): 1002 >= 1000; (7, 100): 800 + ...; (2000, 1): the first call.
  EXPECT_EQ(testing::InnerDeoptCount() - inner_before, 3);
}

TEST_P(LowerNativeTest, RegisterPressureAcrossCallsAndInDeoptStates) {
  // 40 values live across calls, all of them in a guard's frame state.
  ir::Function f("pressure", {Type::kI64, Type::kI64}, {Type::kI64});
  ir::Builder b(&f);
  ir::Block* entry = b.CreateEntryBlock();
  b.SetInsertionPoint(entry);
  Value* x = entry->params()[0];
  Value* y = entry->params()[1];
  std::vector<Value*> vs;
  for (int i = 0; i < 40; ++i) {
    vs.push_back(b.Binary(Opcode::kIadd, b.Binary(Opcode::kImul, x, b.I64(i + 1)), y));
    if (i % 10 == 9) {
      vs.push_back(b.CallRuntime(registry_.Find("mix"), {vs[i], vs[i / 2], x})[0]);
    }
  }
  std::vector<ir::ValuePair> locals;
  for (size_t i = 0; i + 1 < vs.size(); i += 2) locals.push_back({vs[i], vs[i + 1]});
  ir::FrameState* fs = b.CreateFrameState(ir::DeoptKind::kEager, 5, 6, locals, {{x, y}});
  b.Guard(b.ICmp(ir::Cond::kNe, vs[17], b.I64(0)), fs, "value 17 is zero");
  Value* sum = vs[0];
  for (size_t i = 1; i < vs.size(); ++i) {
    sum = b.Binary(Opcode::kXor, b.Binary(Opcode::kImul, sum, b.I64(31)), vs[i]);
  }
  b.Return({sum});
  ASSERT_TRUE(ir::Verify(f).ok()) << ir::Verify(f);
  // vs[17] = 17x + y (vs[10] is a call's result): zero for (1, -17).
  EXPECT_EQ(ExpectSame(f, {{1, 2}, {1, -17}, {-3, 7}, {INT64_MAX, 3}}), 2);
}

TEST_P(LowerNativeTest, LoadsAndStores) {
  auto f = Parse(R"(func @mem(ptr, i64) -> (i64, i64) {
block0(v0: ptr, v1: i64):
  store.i64 v1, v0, 8
  v2 = load.i64 v0, 8
  v3 = iadd v2, v1
  store.i64 v3, v0, 0
  store.ptr v0, v0, 16
  v4 = load.ptr v0, 16
  v5 = load.i64 v4, 0
  v6 = bitcast.i64 v4
  v7 = isub v6, v6
  v8 = iadd v5, v7
  return v8, v2
}
)");
  ASSERT_NE(f, nullptr);
  int64_t want_mem[3] = {}, got_mem[3] = {};
  for (int64_t x : std::vector<int64_t>{0, 5, -17, INT64_MIN}) {
    std::memset(want_mem, 0, sizeof(want_mem));
    std::memset(got_mem, 0, sizeof(got_mem));
    auto want = ir::Interpret(*f, {reinterpret_cast<int64_t>(want_mem), x});
    ASSERT_TRUE(want.ok());
    auto native = h_.Compile(*f);
    ASSERT_TRUE(native.ok()) << native.status();
    auto got = (*native)->Run({reinterpret_cast<int64_t>(got_mem), x});
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(ir::DebugString(*got), ir::DebugString(*want));
    EXPECT_EQ(got_mem[0], want_mem[0]);
    EXPECT_EQ(got_mem[1], want_mem[1]);
    EXPECT_EQ(got_mem[2], reinterpret_cast<int64_t>(got_mem));
  }
}

TEST_P(LowerNativeTest, UnsupportedOperationsAreReportedByName) {
  struct Case {
    const char* text;
    absl::StatusCode code;
    const char* mentions;
  };
  const Case cases[] = {
      {R"(func @f(i64) -> (i64) {
block0(v0: i64):
  v1 = bitcast.f64 v0
  v2 = fadd v1, v1
  v3 = bitcast.i64 v2
  return v3
}
)", absl::StatusCode::kUnimplemented, "bitcast.f64"},
      {R"(func @f(f64) -> (f64) {
block0(v0: f64):
  return v0
}
)", absl::StatusCode::kUnimplemented, "f64 parameter"},
      {R"(func @f(ptr) -> (i32) {
block0(v0: ptr):
  v1 = load.i32 v0, 0
  return v1
}
)", absl::StatusCode::kUnimplemented, "load"},
      {R"(func @f() -> () {
block0:
  call_runtime @declared_only() -> ()
  return
}
)", absl::StatusCode::kFailedPrecondition, "declared_only"},
  };
  for (const Case& c : cases) {
    auto f = Parse(c.text);
    ASSERT_NE(f, nullptr);
    auto r = h_.Compile(*f);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), c.code) << r.status();
    EXPECT_NE(std::string(r.status().message()).find(c.mentions), std::string::npos)
        << r.status();
  }
  // One parameter more than the target has argument registers (x86_64: 6,
  // AArch64: 8).
  {
    const size_t n = h_.backend().register_info().argument_regs.size() + 1;
    std::string types, params;
    for (size_t i = 0; i < n; ++i) {
      absl::StrAppend(&types, i == 0 ? "" : ", ", "i64");
      absl::StrAppend(&params, i == 0 ? "" : ", ", "v", i, ": i64");
    }
    auto f = Parse(absl::StrCat("func @f(", types, ") -> (i64) {\nblock0(", params,
                                "):\n  return v", n - 1, "\n}\n")
                       .c_str());
    ASSERT_NE(f, nullptr);
    auto r = h_.Compile(*f);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kUnimplemented) << r.status();
    EXPECT_NE(std::string(r.status().message()).find("parameters"), std::string::npos)
        << r.status();
  }
  // call_target without a dispatcher or a resolved target.
  auto f = Parse(R"(func @f(i64) -> (i64, i64) {
block0(v0: i64):
  v1, v2 = call_target @1(v0) -> (i64, i64)
  return v1, v2
}
)");
  ASSERT_NE(f, nullptr);
  codegen::NativeCompileOptions options = h_.DefaultOptions();
  options.lowering.call_target_dispatch = nullptr;
  EXPECT_EQ(h_.Compile(*f, options).status().code(), absl::StatusCode::kFailedPrecondition);
}

ValuePair OverflowHandler(int64_t a, int64_t b) {
  return {static_cast<uint64_t>(a + b + 1000), 42};
}

TEST_P(LowerNativeTest, StackCheckFromCompileOptions) {
  auto f = Parse(R"(func @f(i64, i64) -> (i64, i64) {
block0(v0: i64, v1: i64):
  v2 = iadd v0, v1
  return v2, v1
}
)");
  ASSERT_NE(f, nullptr);
  static uint64_t limit = 0;
  codegen::NativeCompileOptions options = h_.DefaultOptions();
  options.codegen.stack_limit.kind = codegen::StackLimit::Kind::kAbsolute;
  options.codegen.stack_limit.address = &limit;
  options.codegen.stack_overflow_handler = reinterpret_cast<const void*>(&OverflowHandler);
  auto native = h_.Compile(*f, options);
  ASSERT_TRUE(native.ok()) << native.status();
  limit = 0;  // never below
  auto ok = (*native)->Run({3, 4});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->values, (std::vector<int64_t>{7, 4}));
  limit = UINT64_MAX;  // always below: the handler's result is returned
  auto overflow = (*native)->Run({3, 4});
  ASSERT_TRUE(overflow.ok());
  EXPECT_EQ(overflow->values, (std::vector<int64_t>{1007, 42}));
}

thread_local uint64_t tls_limit = 0;

TEST_P(LowerNativeTest, StackCheckWithAThreadLocalLimit) {
  if (!h_.runner().native()) GTEST_SKIP() << "reads compiled frames or runs threads from C++";
  auto f = Parse(R"(func @f(i64, i64) -> (i64, i64) {
block0(v0: i64, v1: i64):
  v2 = iadd v0, v1
  return v2, v1
}
)");
  ASSERT_NE(f, nullptr);
  codegen::NativeCompileOptions options = h_.DefaultOptions();
  options.codegen.stack_limit.kind = codegen::StackLimit::Kind::kThreadLocal;
  options.codegen.stack_limit.offset =
      static_cast<int32_t>(h_.ThreadPointerOffset(&tls_limit));
  options.codegen.stack_overflow_handler = reinterpret_cast<const void*>(&OverflowHandler);
  auto native = h_.Compile(*f, options);
  ASSERT_TRUE(native.ok()) << native.status();
  tls_limit = 0;
  auto ok = (*native)->Run({3, 4});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->values, (std::vector<int64_t>{7, 4}));
  // The limit is compared with the frame, not with some other address: just
  // below this frame passes, far above it fails.
  tls_limit = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) - (64 << 10);
  ok = (*native)->Run({3, 4});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->values, (std::vector<int64_t>{7, 4}));
  tls_limit = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) + (64 << 10);
  auto overflow = (*native)->Run({3, 4});
  ASSERT_TRUE(overflow.ok());
  EXPECT_EQ(overflow->values, (std::vector<int64_t>{1007, 42}));
  // Each thread reads its own limit: a new thread's is 0.
  absl::StatusOr<ir::ExecutionResult> other = absl::UnknownError("not run");
  std::thread thread([&] { other = (*native)->Run({3, 4}); });
  thread.join();
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_EQ(other->values, (std::vector<int64_t>{7, 4}));
  tls_limit = 0;
}

// A lazy deopt state is readable while the callee runs: with every value
// spilled, the callee decodes its caller's state from the caller's frame
// (saved rbp) and the call site of its return address.
const codegen::CompiledFunction* lazy_caller = nullptr;
std::vector<ir::DeoptFrame> lazy_frames;
absl::Status lazy_status;

int64_t RtInspectCaller(int64_t x) {
  auto* fp = *static_cast<uint8_t**>(__builtin_frame_address(0));
  const auto* ret = static_cast<const uint8_t*>(__builtin_return_address(0));
  const auto* start = static_cast<const uint8_t*>(lazy_caller->entry);
  int32_t id = -1;
  for (const codegen::CallSite& site : lazy_caller->code.metadata.call_sites) {
    if (start + site.return_offset == ret) id = site.deopt_id;
  }
  if (id < 0) {
    lazy_status = absl::NotFoundError("no call site");
    return x;
  }
  auto decoded = lazy_caller->DecodeDeopt(static_cast<uint64_t>(id), nullptr, fp);
  lazy_status = decoded.status();
  if (decoded.ok()) lazy_frames = decoded->frames;
  return x + 1;
}

TEST_P(LowerNativeTest, LazyDeoptStateAtACall) {
  if (!h_.runner().native()) GTEST_SKIP() << "reads compiled frames or runs threads from C++";
  ASSERT_TRUE(registry_
                  .Register({"inspect", reinterpret_cast<const void*>(&RtInspectCaller),
                             {{Type::kI64}, {Type::kI64}}, ir::RuntimeEffects::kMayDeopt})
                  .ok());
  auto f = Parse(R"(func @lazy(i64, i64) -> (i64) {
  fs0 = lazy interpreter target 9 resume 12 locals [v0:v1, illegal, v2:v3] stack [v3:v0] parent fs1
  fs1 = eager interpreter target 8 resume 2 locals [v1:v1] stack []
block0(v0: i64, v1: i64):
  v2 = imul v0, v1
  v3 = iconst.i64 77
  v4 = call_runtime @inspect(v2) -> (i64), fs0
  v5 = iadd v4, v0
  return v5
}
)");
  ASSERT_NE(f, nullptr);
  codegen::NativeCompileOptions options = h_.DefaultOptions();
  options.codegen.allocation.spill_everything = true;
  auto native = h_.Compile(*f, options);
  ASSERT_TRUE(native.ok()) << native.status();
  lazy_caller = &(*native)->compiled();
  const codegen::DeoptEntry* entry = lazy_caller->deopt_map.Find(0);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->cause, codegen::DeoptEntry::Cause::kCall);
  EXPECT_EQ(entry->kind, ir::DeoptKind::kLazy);
  auto r = (*native)->Run({6, -2});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->values, (std::vector<int64_t>{-11 + 6 + 0}));
  ASSERT_TRUE(lazy_status.ok()) << lazy_status;
  using S = ir::DeoptFrame::Slot;
  std::vector<ir::DeoptFrame> want = {
      {9, 12, {S{true, 6, -2}, S{}, S{true, -12, 77}}, {S{true, 77, 6}}},
      {8, 2, {S{true, -2, -2}}, {}}};
  EXPECT_EQ(lazy_frames, want);
  // Without spilling, the state lives in callee-saved registers or slots,
  // never in registers the call destroys.
  auto plain = h_.Compile(*f);
  ASSERT_TRUE(plain.ok());
  const auto* point = (*plain)->compiled().code.metadata.FindDeopt(0);
  ASSERT_NE(point, nullptr);
  for (const codegen::ValueLocation& loc : point->values) {
    if (loc.kind == codegen::ValueLocation::Kind::kRegister) {
      EXPECT_TRUE(h_.backend().register_info().IsCalleeSaved(static_cast<codegen::PReg>(loc.value)))
          << loc.value;
    }
  }
}

// A stack walk through two compiled frames (engine/runtime/compiled_frames.h):
// the outer function keeps its lazy state in callee-saved registers across
// a direct call; the inner one saves every callee-saved register (more
// values live across its own call than there are such registers), so the
// outer's values at the call are in the inner's save area, which
// CodeMetadata::saved_registers locates. The runtime function the inner one
// calls walks up the saved-rbp chain and decodes the outer's state.
const codegen::CompiledFunction* walk_outer = nullptr;
const codegen::CompiledFunction* walk_inner = nullptr;
std::vector<ir::DeoptFrame> walk_frames;
absl::Status walk_status;

int64_t RtWalkTwoFrames(int64_t x) {
  const auto* inner_fp = *static_cast<const uint8_t* const*>(__builtin_frame_address(0));
  const uint8_t* outer_fp;
  const uint8_t* outer_ret;
  std::memcpy(&outer_fp, inner_fp, sizeof(outer_fp));
  std::memcpy(&outer_ret, inner_fp + 8, sizeof(outer_ret));
  uint64_t registers[64] = {};
  const std::vector<int>& saved = walk_inner->code.metadata.saved_registers;
  for (size_t k = 0; k < saved.size(); ++k) {
    std::memcpy(&registers[saved[k]], inner_fp - 8 * (k + 1), sizeof(uint64_t));
  }
  const auto* start = static_cast<const uint8_t*>(walk_outer->entry);
  int32_t id = -1;
  for (const codegen::CallSite& site : walk_outer->code.metadata.call_sites) {
    if (start + site.return_offset == outer_ret) id = site.deopt_id;
  }
  if (id < 0) {
    walk_status = absl::NotFoundError("the return address is not a call site of @outer");
    return x;
  }
  auto decoded = walk_outer->DecodeDeopt(static_cast<uint64_t>(id), registers, outer_fp);
  walk_status = decoded.status();
  if (decoded.ok()) walk_frames = decoded->frames;
  return x + 1;
}

TEST_P(LowerNativeTest, LazyStateOfACallerRecoveredThroughTheCalleesSaveArea) {
  if (!h_.runner().native()) GTEST_SKIP() << "reads compiled frames or runs threads from C++";
  ASSERT_TRUE(registry_
                  .Register({"walk2", reinterpret_cast<const void*>(&RtWalkTwoFrames),
                             {{Type::kI64}, {Type::kI64}}, ir::RuntimeEffects::kNoDeopt})
                  .ok());
  // More values live across the runtime call than the target has
  // callee-saved registers to allocate, so the inner frame saves all of
  // them (x86_64: 5, AArch64: 10).
  const codegen::RegisterInfo& ri = h_.backend().register_info();
  size_t callee_saved = 0;
  for (codegen::PReg r : ri.allocatable[0]) callee_saved += ri.IsCalleeSaved(r) ? 1 : 0;
  const size_t live = callee_saved + 2;
  std::string inner_text = "func @inner(i64, i64) -> (i64, i64) {\nblock0(v0: i64, v1: i64):\n";
  for (size_t i = 0; i < live; ++i) {  // v2 = v0 + v1, v3 = v2 * v1, ...
    absl::StrAppend(&inner_text, "  v", 2 + i, i % 2 == 0 ? " = iadd v" : " = imul v",
                    i == 0 ? 0 : 1 + i, ", v1\n");
  }
  const size_t call = 2 + live;
  absl::StrAppend(&inner_text, "  v", call, " = call_runtime @walk2(v0) -> (i64)\n");
  size_t sum = call;
  for (size_t i = 0; i < live; ++i) {
    absl::StrAppend(&inner_text, "  v", sum + 1, " = iadd v", sum, ", v", 2 + i, "\n");
    ++sum;
  }
  absl::StrAppend(&inner_text, "  return v", sum, ", v0\n}\n");
  auto inner = Parse(inner_text.c_str());
  auto outer = Parse(R"(func @outer(i64, i64) -> (i64) {
  fs0 = lazy interpreter target 31 resume 3 locals [v0:v1, illegal, v2:v3] stack []
block0(v0: i64, v1: i64):
  v2 = imul v0, v1
  v3 = iadd v0, v1
  v4, v5 = call_target @30(v2, v3) -> (i64, i64), fs0
  v6 = iadd v4, v2
  v7 = iadd v6, v3
  v8 = iadd v7, v0
  v9 = iadd v8, v1
  v10 = iadd v9, v5
  return v10
}
)");
  ASSERT_NE(inner, nullptr);
  ASSERT_NE(outer, nullptr);
  auto native_inner = h_.Compile(*inner);
  ASSERT_TRUE(native_inner.ok()) << native_inner.status();
  walk_inner = &(*native_inner)->compiled();
  // The precondition of the test: the inner frame saved every register the
  // outer frame may keep its state in.
  ASSERT_EQ(walk_inner->code.metadata.saved_registers.size(), callee_saved);
  codegen::NativeCompileOptions options = h_.DefaultOptions();
  const void* inner_entry = walk_inner->entry;
  options.lowering.resolve_call_target = [&](int64_t id) {
    return id == 30 ? inner_entry : nullptr;
  };
  options.lowering.call_target_dispatch = nullptr;
  auto native_outer = h_.Compile(*outer, options);
  ASSERT_TRUE(native_outer.ok()) << native_outer.status();
  walk_outer = &(*native_outer)->compiled();
  // Not vacuous: some of the outer state is in (callee-saved) registers.
  const codegen::DeoptPoint* point = walk_outer->code.metadata.FindDeopt(0);
  ASSERT_NE(point, nullptr);
  int in_registers = 0;
  for (const codegen::ValueLocation& loc : point->values) {
    if (loc.kind == codegen::ValueLocation::Kind::kRegister) ++in_registers;
  }
  EXPECT_GT(in_registers, 0);
  walk_status = absl::UnknownError("not called");
  auto r = (*native_outer)->Run({6, -7});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(walk_status.ok()) << walk_status;
  using S = ir::DeoptFrame::Slot;
  std::vector<ir::DeoptFrame> want = {{31, 3, {S{true, 6, -7}, S{}, S{true, -42, -1}}, {}}};
  EXPECT_EQ(walk_frames, want);
}

INSTANTIATE_TEST_SUITE_P(Backends, LowerNativeTest, ::testing::ValuesIn(testing::RunnableBackends()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LowerNativeTest);

}  // namespace
}  // namespace morel::codegen
