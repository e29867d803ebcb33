// Every instruction form, encoded through LLVM MC and decoded back through
// the disassembler: the same opcode and the same operands (registers,
// immediates in LLVM's units), for every register in every register
// position and for the boundaries of every immediate; operands a form
// cannot hold are refused and append nothing.

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backend_aarch64/disasm.h"
#include "backend_aarch64/emit.h"
#include "backend_aarch64/expected_operands.h"
#include "backend_aarch64/isa.h"
#include "gtest/gtest.h"

namespace morel::aarch64 {
namespace {

using codegen::CodeBuffer;

// A valid operand set for `form`, with ordinary registers.
FormOperands Typical(Form form) {
  FormOperands ops{kX1, kX2, kX3, kX4};
  switch (GetForm(form).layout) {
    case Layout::kMovWide: case Layout::kMovK: ops.imm = 0x1234; ops.imm2 = 16; break;
    case Layout::kRRImm12: ops.imm = 42; break;
    case Layout::kRRLogical: ops.imm = 0xff00; break;
    case Layout::kRRImmImm: ops.imm = 3; ops.imm2 = 63; break;
    case Layout::kLoadStoreScaled: case Layout::kPair: case Layout::kPairWb: ops.imm = 16; break;
    case Layout::kLoadStoreUnscaled: ops.imm = -8; break;
    case Layout::kBranchCond: case Layout::kBranch: case Layout::kCompareBranch: ops.imm = 64; break;
    case Layout::kSysReg: ops.imm = kTpidrEl0; break;
    case Layout::kImm16: ops.imm = 7; break;
    default: break;
  }
  return ops;
}

class EmitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto enc = McEncoder::Create();
    ASSERT_TRUE(enc.ok()) << enc.status();
    enc_ = std::move(*enc);
    auto dis = McDisassembler::Create();
    ASSERT_TRUE(dis.ok()) << dis.status();
    dis_ = std::move(*dis);
  }

  // Encodes; on success checks the round trip and returns true, on refusal
  // checks that nothing was appended and returns false.
  bool RoundTrip(Form form, const FormOperands& ops) {
    CodeBuffer buf;
    absl::Status s = enc_->Encode(form, ops, buf);
    const std::string what = absl::StrCat(GetForm(form).llvm_name, " ", FormText(form, ops));
    if (!s.ok()) {
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << what << ": " << s;
      EXPECT_EQ(buf.size(), 0u) << what;
      return false;
    }
    EXPECT_EQ(buf.size(), 4u) << what;
    auto decoded = dis_->Decode(buf.bytes());
    EXPECT_TRUE(decoded.ok()) << what << ": " << decoded.status();
    if (!decoded.ok() || decoded->size() != 1) return true;
    const DecodedInst& d = (*decoded)[0];
    EXPECT_EQ(d.opcode, enc_->LlvmOpcode(form)) << what << " decoded as " << d.opcode_name;
    const std::vector<DecodedOperand> want = ExpectedOperands(form, ops);
    EXPECT_EQ(d.operands, want) << what << ": decoded " << DescribeOperands(d.operands) << "(" << d.text
                                << "), expected " << DescribeOperands(want);
    ++round_trips_;
    return true;
  }

  std::unique_ptr<McEncoder> enc_;
  std::unique_ptr<McDisassembler> dis_;
  int round_trips_ = 0;
};

TEST_F(EmitTest, EveryFormRoundTripsWithOrdinaryRegisters) {
  for (const FormInfo& f : Forms()) {
    for (int r = kX0; r <= kX28; ++r) {
      FormOperands ops = Typical(f.form);
      const Gpr g = static_cast<Gpr>(r);
      for (Gpr* slot : {&ops.d, &ops.n, &ops.m, &ops.a}) *slot = g;
      // A pair load writes two registers: they must differ (LLVM refuses
      // to decode ldp x1, x1, which is unpredictable).
      if (f.form == Form::kLdp || f.form == Form::kLdpPost) ops.a = g == kX0 ? kX1 : kX0;
      if (f.form == Form::kStpPre || f.form == Form::kLdpPost) {
        ops.n = g == kX5 ? kX6 : kX5;  // write-back base distinct from the data
      }
      EXPECT_TRUE(RoundTrip(f.form, ops)) << f.llvm_name << " with x" << r;
    }
  }
  EXPECT_GE(round_trips_, static_cast<int>(Form::kNumForms) * 29);
}

// Register 31 is sp in some operand positions and xzr in others: each form
// accepts exactly the one its instruction means, in every position.
TEST_F(EmitTest, StackPointerAndZeroRegisterWhereTheInstructionTakesThem) {
  int accepted = 0, refused = 0;
  for (const FormInfo& f : Forms()) {
    for (Gpr special : {kSp, kXzr}) {
      for (int position = 0; position < 4; ++position) {
        FormOperands ops = Typical(f.form);
        Gpr* slots[] = {&ops.d, &ops.n, &ops.m, &ops.a};
        *slots[position] = special;
        (RoundTrip(f.form, ops) ? accepted : refused) += 1;
      }
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(refused, 0);
  // Spot checks of the two classes.
  EXPECT_TRUE(RoundTrip(Form::kAddImm, {kSp, kSp, kNoGpr, kNoGpr, 16}));
  EXPECT_FALSE(RoundTrip(Form::kAddImm, {kXzr, kX1, kNoGpr, kNoGpr, 16}));
  EXPECT_TRUE(RoundTrip(Form::kSubsReg, {kXzr, kX1, kX2}));
  EXPECT_FALSE(RoundTrip(Form::kOrrReg, {kSp, kXzr, kX2}));
  EXPECT_TRUE(RoundTrip(Form::kLdr, {kX1, kSp, kNoGpr, kNoGpr, 8}));
  EXPECT_FALSE(RoundTrip(Form::kLdr, {kX1, kXzr, kNoGpr, kNoGpr, 8}));
  EXPECT_TRUE(RoundTrip(Form::kStr, {kXzr, kX3, kNoGpr, kNoGpr, 0}));
  EXPECT_FALSE(RoundTrip(Form::kStr, {kSp, kX3, kNoGpr, kNoGpr, 0}));
}

TEST_F(EmitTest, ImmediateBoundaries) {
  for (const FormInfo& f : Forms()) {
    if (f.layout == Layout::kRRLogical) continue;  // below
    const ImmediateRange range = GetImmediateRange(f.form);
    if (range.min == range.max) continue;  // no immediate
    FormOperands ops = Typical(f.form);
    for (int64_t v : {range.min, range.max, range.min + range.multiple, int64_t{0}}) {
      if (v < range.min) continue;  // 0 is no boundary of a range above it
      ops.imm = v;
      EXPECT_TRUE(RoundTrip(f.form, ops)) << f.llvm_name << " #" << v;
    }
    for (int64_t v : {range.min - range.multiple, range.max + range.multiple}) {
      ops.imm = v;
      EXPECT_FALSE(RoundTrip(f.form, ops)) << f.llvm_name << " #" << v;
    }
    if (range.multiple > 1) {
      ops.imm = range.multiple / 2;
      EXPECT_FALSE(RoundTrip(f.form, ops)) << f.llvm_name << " misaligned";
    }
  }
  // The second immediates.
  FormOperands movz{kX1, kNoGpr, kNoGpr, kNoGpr, 1, 48};
  EXPECT_TRUE(RoundTrip(Form::kMovz, movz));
  movz.imm2 = 8;
  EXPECT_FALSE(RoundTrip(Form::kMovz, movz));
  FormOperands add{kX1, kX2, kNoGpr, kNoGpr, 4095, 12};
  EXPECT_TRUE(RoundTrip(Form::kAddImm, add));
  add.imm2 = 1;
  EXPECT_FALSE(RoundTrip(Form::kAddImm, add));
  for (ShiftType t : {ShiftType::kLsl, ShiftType::kLsr, ShiftType::kAsr}) {
    for (int64_t amount : {0, 1, 63}) {
      EXPECT_TRUE(RoundTrip(Form::kSubsReg, {kXzr, kX1, kX2, kNoGpr, 0, amount, t}));
    }
    EXPECT_FALSE(RoundTrip(Form::kAddReg, {kX0, kX1, kX2, kNoGpr, 0, 64, t}));
  }
  FormOperands csel{kX1, kX2, kX3};
  for (int cc = 0; cc <= 14; ++cc) {
    csel.cc = static_cast<A64Cond>(cc);
    EXPECT_TRUE(RoundTrip(Form::kCsel, csel));
  }
  csel.cc = static_cast<A64Cond>(15);
  EXPECT_FALSE(RoundTrip(Form::kCsel, csel));
}

// Bitmask immediates: every element size, run length and rotation encodes
// and decodes to itself (through LLVM's decoder and ours); other values are
// refused.
TEST_F(EmitTest, LogicalImmediates) {
  int valid = 0;
  for (unsigned size = 2; size <= 64; size *= 2) {
    for (unsigned ones = 1; ones < size; ++ones) {
      for (unsigned rotation = 0; rotation < size; ++rotation) {
        uint64_t element = (uint64_t{1} << ones) - 1;
        if (rotation != 0) {
          const uint64_t mask = size == 64 ? ~uint64_t{0} : (uint64_t{1} << size) - 1;
          element = ((element >> rotation) | (element << (size - rotation))) & mask;
        }
        uint64_t value = element;
        for (unsigned s = size; s < 64; s *= 2) value |= value << s;
        std::optional<uint32_t> enc = EncodeLogicalImmediate(value);
        ASSERT_TRUE(enc.has_value()) << std::hex << value;
        EXPECT_EQ(DecodeLogicalImmediate(*enc), value) << std::hex << value;
        if ((size == 64 && rotation % 7 == 0) || size <= 16) {
          EXPECT_TRUE(RoundTrip(Form::kEorImm, {kX1, kX2, kNoGpr, kNoGpr,
                                                static_cast<int64_t>(value)}));
        }
        ++valid;
      }
    }
  }
  EXPECT_EQ(valid, 5334);  // the architecture's count of distinct bitmask immediates
  for (uint64_t bad : {uint64_t{0}, ~uint64_t{0}, uint64_t{0x5}, uint64_t{0x1234},
                       uint64_t{0x8000000000000005ull}}) {
    EXPECT_FALSE(EncodeLogicalImmediate(bad).has_value()) << std::hex << bad;
    EXPECT_FALSE(RoundTrip(Form::kAndImm, {kX1, kX2, kNoGpr, kNoGpr, static_cast<int64_t>(bad)}));
  }
}

TEST_F(EmitTest, MissingRegisterIsRefused) {
  for (const FormInfo& f : Forms()) {
    FormOperands ops = Typical(f.form);
    ops.d = ops.n = ops.m = ops.a = kNoGpr;
    const bool has_register = f.layout != Layout::kBranchCond && f.layout != Layout::kBranch &&
                              f.layout != Layout::kImm16;
    if (has_register) {
      EXPECT_FALSE(RoundTrip(f.form, ops)) << f.llvm_name;
    }
  }
}

// 5000 seeded random instructions, singly and as one stream decoded at
// once.
TEST_F(EmitTest, RandomInstructionStream) {
  std::mt19937_64 rng(17);
  CodeBuffer stream;
  std::vector<std::vector<DecodedOperand>> want;
  std::vector<Form> forms;
  int attempts = 0;
  while (forms.size() < 5000 && attempts < 200000) {
    ++attempts;
    const Form form = static_cast<Form>(rng() % static_cast<int>(Form::kNumForms));
    FormOperands ops = Typical(form);
    ops.d = static_cast<Gpr>(rng() % 33);
    ops.n = static_cast<Gpr>(rng() % 33);
    ops.m = static_cast<Gpr>(rng() % 33);
    ops.a = static_cast<Gpr>(rng() % 33);
    const ImmediateRange range = GetImmediateRange(form);
    if (range.max > range.min && GetForm(form).layout != Layout::kRRLogical) {
      const int64_t steps = (range.max - range.min) / range.multiple + 1;
      ops.imm = range.min + static_cast<int64_t>(rng() % static_cast<uint64_t>(steps)) *
                                range.multiple;
    }
    if (GetForm(form).layout == Layout::kRRRShift) {
      ops.imm2 = static_cast<int64_t>(rng() % 64);
      ops.shift = static_cast<ShiftType>(rng() % 3);
    }
    if (GetForm(form).layout == Layout::kRRRCond || GetForm(form).layout == Layout::kBranchCond) {
      ops.cc = static_cast<A64Cond>(rng() % 15);
    }
    if ((form == Form::kLdp || form == Form::kLdpPost) && ops.d == ops.a) continue;
    if ((form == Form::kStpPre || form == Form::kLdpPost) && (ops.n == ops.d || ops.n == ops.a)) {
      continue;
    }
    CodeBuffer one;
    if (!enc_->Encode(form, ops, one).ok()) continue;
    ASSERT_TRUE(RoundTrip(form, ops));
    ASSERT_TRUE(enc_->Encode(form, ops, stream).ok());
    want.push_back(ExpectedOperands(form, ops));
    forms.push_back(form);
  }
  ASSERT_EQ(forms.size(), 5000u);
  auto decoded = dis_->Decode(stream.bytes(), 0x1000);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), forms.size());
  for (size_t i = 0; i < forms.size(); ++i) {
    EXPECT_EQ((*decoded)[i].opcode, enc_->LlvmOpcode(forms[i])) << i;
    EXPECT_EQ((*decoded)[i].operands, want[i]) << i;
  }
}

// What traces print (with aliases) and the form texts (without).
TEST_F(EmitTest, Listings) {
  CodeBuffer buf;
  ASSERT_TRUE(enc_->Encode(Form::kOrrReg, {kX0, kXzr, kX1}, buf).ok());
  ASSERT_TRUE(enc_->Encode(Form::kSubsReg, {kXzr, kX2, kX3}, buf).ok());
  ASSERT_TRUE(enc_->Encode(Form::kCsinc, {kX4, kXzr, kXzr, kNoGpr, 0, 0, ShiftType::kLsl,
                                          A64Cond::kNe},
                           buf).ok());
  ASSERT_TRUE(enc_->Encode(Form::kMrs, {kX5, kNoGpr, kNoGpr, kNoGpr, kTpidrEl0}, buf).ok());
  ASSERT_TRUE(enc_->Encode(Form::kStpPre, {kFp, kSp, kNoGpr, kLr, -16}, buf).ok());
  auto listing = dis_->Listing(buf.bytes(), 0x100);
  ASSERT_TRUE(listing.ok()) << listing.status();
  EXPECT_EQ(*listing,
            "  0x100: mov x0, x1\n"
            "  0x104: cmp x2, x3\n"
            "  0x108: cset x4, eq\n"
            "  0x10c: mrs x5, TPIDR_EL0\n"
            "  0x110: stp x29, x30, [sp, #-16]!\n");
  EXPECT_EQ(FormText(Form::kAddImm, {kX1, kSp, kNoGpr, kNoGpr, 1, 12}), "add x1, sp, #1, lsl #12");
  EXPECT_EQ(FormText(Form::kSubsReg, {kXzr, kX1, kX2, kNoGpr, 0, 63, ShiftType::kAsr}),
            "subs xzr, x1, x2, asr #63");
}

// Encoders on several threads share the process-wide MC objects and take
// their mutable state from a pool: the same bytes as one encoder.
TEST_F(EmitTest, EncodersOnSeveralThreadsAgree) {
  CodeBuffer reference;
  for (const FormInfo& f : Forms()) ASSERT_TRUE(enc_->Encode(f.form, Typical(f.form), reference).ok());
  std::vector<std::thread> threads;
  std::vector<std::vector<uint8_t>> results(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        auto enc = McEncoder::Create();
        if (!enc.ok()) return;
        CodeBuffer buf;
        for (const FormInfo& f : Forms()) {
          if (!(*enc)->Encode(f.form, Typical(f.form), buf).ok()) return;
        }
        results[t] = buf.bytes();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& r : results) EXPECT_EQ(r, reference.bytes());
}

}  // namespace
}  // namespace morel::aarch64
