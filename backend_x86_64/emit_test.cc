// Encoder round trip: every form, over registers and immediates, is encoded
// through MCCodeEmitter, decoded through MCDisassembler and printed by
// MCInstPrinter; the text must equal the form's AT&T pattern and the decoded
// opcode must be the form's opcode.

#include "backend_x86_64/emit.h"

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend_x86_64/disasm.h"
#include "backend_x86_64/isa.h"
#include "gtest/gtest.h"

namespace morel::x86_64 {
namespace {

class EmitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto enc = McEncoder::Create();
    ASSERT_TRUE(enc.ok()) << enc.status();
    encoder_ = std::move(*enc);
    auto dis = McDisassembler::Create();
    ASSERT_TRUE(dis.ok()) << dis.status();
    disasm_ = std::move(*dis);
  }

  // Encodes one instruction and checks its round trip; returns the failure
  // description or "".
  std::string RoundTrip(Form form, const FormOperands& ops) {
    codegen::CodeBuffer buf;
    absl::Status s = encoder_->Encode(form, ops, buf);
    if (!s.ok()) return std::string(s.message());
    auto decoded = disasm_->Decode(buf.bytes());
    if (!decoded.ok()) return std::string(decoded.status().message());
    if (decoded->size() != 1) return "decoded into " + std::to_string(decoded->size()) + " insts";
    const DecodedInst& d = (*decoded)[0];
    std::string want = ExpectedAtt(form, ops);
    std::string info = std::string(GetForm(form).llvm_name);
    if (d.text != want) return info + ": got '" + d.text + "', want '" + want + "'";
    if (d.opcode != encoder_->LlvmOpcode(form)) {
      return info + ": decoded as " + d.opcode_name;
    }
    return "";
  }

  std::unique_ptr<McEncoder> encoder_;
  std::unique_ptr<McDisassembler> disasm_;
};

bool UsesImm(Layout l) {
  return l == Layout::kRI || l == Layout::kRITied || l == Layout::kRRI || l == Layout::kRel32 ||
         l == Layout::kRel32Cond || l == Layout::kI || l == Layout::kMI;
}

// An immediate the form can hold.
int64_t ImmFor(Form f, std::mt19937_64& rng) {
  switch (f) {
    case Form::kMovRI64: return static_cast<int64_t>(rng());
    case Form::kShlRI: case Form::kSarRI: case Form::kShrRI: return 1 + rng() % 63;
    default: break;
  }
  absl::string_view n = GetForm(f).llvm_name;
  if (n.size() >= 3 && n.substr(n.size() - 3) == "ri8") return static_cast<int8_t>(rng());
  if (n == "IMUL64rri8") return static_cast<int8_t>(rng());
  return static_cast<int32_t>(rng());
}

TEST_F(EmitTest, EveryFormEveryRegister) {
  std::mt19937_64 rng(1);
  int checked = 0;
  for (const FormInfo& info : Forms()) {
    for (int d = 0; d < kNumGprs; ++d) {
      for (int s : {0, 3, 4, 5, 8, 12, 13, 15}) {
        FormOperands ops;
        ops.dst = static_cast<Gpr>(d);
        ops.src = static_cast<Gpr>(s);
        ops.base = static_cast<Gpr>(s);
        ops.disp = (d % 3 == 0) ? 0 : (d % 3 == 1 ? -8 * d : 4096 + d);
        ops.imm = ImmFor(info.form, rng);
        ops.cc = static_cast<X86Cond>(d);
        if (info.layout != Layout::kRM && info.layout != Layout::kMR &&
            info.layout != Layout::kMI) {
          ops.base = kNoGpr;
        }
        std::string err = RoundTrip(info.form, ops);
        EXPECT_EQ(err, "") << "dst=" << d << " src=" << s;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, static_cast<int>(Form::kNumForms) * 16 * 8);
}

TEST_F(EmitTest, ImmediateEdges) {
  for (int64_t imm : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{INT32_MAX}, int64_t{INT32_MIN},
                      int64_t{INT64_MAX}, int64_t{INT64_MIN}, int64_t{0x123456789}}) {
    FormOperands ops{kR9, kNoGpr, kNoGpr, imm};
    EXPECT_EQ(RoundTrip(Form::kMovRI64, ops), "");
    if (FitsInt32(imm)) {
      EXPECT_EQ(RoundTrip(Form::kMovRI32, ops), "");
      EXPECT_EQ(RoundTrip(Form::kAddRI32, ops), "");
      EXPECT_EQ(RoundTrip(Form::kCmpRI32, ops), "");
      EXPECT_EQ(RoundTrip(Form::kJcc, ops), "");
      EXPECT_EQ(RoundTrip(Form::kJmp, ops), "");
      EXPECT_EQ(RoundTrip(Form::kCallRel32, ops), "");
      EXPECT_EQ(RoundTrip(Form::kPushI32, ops), "");
    }
    if (FitsInt8(imm)) {
      EXPECT_EQ(RoundTrip(Form::kSubRI8, ops), "");
    }
  }
}

TEST_F(EmitTest, ExactBytesOfKnownInstructions) {
  codegen::CodeBuffer buf;
  ASSERT_TRUE(encoder_->Encode(Form::kAddRR, {kRax, kRbx}, buf).ok());
  ASSERT_TRUE(encoder_->Encode(Form::kRet, {}, buf).ok());
  EXPECT_EQ(buf.bytes(), (std::vector<uint8_t>{0x48, 0x01, 0xd8, 0xc3}));
}

TEST_F(EmitTest, MissingOperandsAreErrors) {
  codegen::CodeBuffer buf;
  EXPECT_FALSE(encoder_->Encode(Form::kAddRR, {kRax}, buf).ok());
  EXPECT_FALSE(encoder_->Encode(Form::kLoad, {kRax}, buf).ok());
  EXPECT_EQ(buf.size(), 0u);
}

// Found by encoder_fuzzer: LLVM encodes whatever it is given, so `andq
// $-704680047, %rsp` as AND64ri8 came out as `andq $-111, %rsp`. The
// encoder refuses operands its form cannot hold and appends nothing.
TEST_F(EmitTest, OperandsTheFormCannotHoldAreErrors) {
  codegen::CodeBuffer buf;
  EXPECT_FALSE(encoder_->Encode(Form::kAndRI8, {kRsp, kNoGpr, kNoGpr, -704680047}, buf).ok());
  EXPECT_FALSE(encoder_->Encode(Form::kAddRI8, {kRax, kNoGpr, kNoGpr, 128}, buf).ok());
  EXPECT_FALSE(encoder_->Encode(Form::kImulRRI8, {kRax, kRbx, kNoGpr, -129}, buf).ok());
  EXPECT_FALSE(
      encoder_->Encode(Form::kAddRI32, {kRax, kNoGpr, kNoGpr, int64_t{INT32_MAX} + 1}, buf).ok());
  EXPECT_FALSE(
      encoder_->Encode(Form::kMovRI32, {kRax, kNoGpr, kNoGpr, int64_t{INT32_MIN} - 1}, buf).ok());
  EXPECT_FALSE(encoder_->Encode(Form::kPushI32, {kNoGpr, kNoGpr, kNoGpr, INT64_MAX}, buf).ok());
  EXPECT_FALSE(encoder_->Encode(Form::kShlRI, {kRax, kNoGpr, kNoGpr, 64}, buf).ok());
  EXPECT_FALSE(encoder_->Encode(Form::kSarRI, {kRax, kNoGpr, kNoGpr, -1}, buf).ok());
  FormOperands store{kNoGpr, kNoGpr, kRbx, int64_t{1} << 40};
  EXPECT_FALSE(encoder_->Encode(Form::kStoreI32, store, buf).ok());
  FormOperands setcc{kRax, kRbx};
  setcc.cc = static_cast<X86Cond>(16);
  EXPECT_FALSE(encoder_->Encode(Form::kSetcc, setcc, buf).ok());
  EXPECT_FALSE(encoder_->Encode(Form::kCmov, setcc, buf).ok());
  EXPECT_EQ(buf.size(), 0u);
  // The limits themselves encode.
  EXPECT_EQ(RoundTrip(Form::kAddRI8, {kRax, kNoGpr, kNoGpr, 127}), "");
  EXPECT_EQ(RoundTrip(Form::kAddRI8, {kRax, kNoGpr, kNoGpr, -128}), "");
  EXPECT_EQ(RoundTrip(Form::kShlRI, {kRax, kNoGpr, kNoGpr, 63}), "");
  EXPECT_EQ(RoundTrip(Form::kMovRI64, {kRax, kNoGpr, kNoGpr, INT64_MIN}), "");
}

// Found by encoder_fuzzer under ASan: ExpectedAtt formats {cc} for every
// form, and read past the suffix table for an invalid code.
TEST(CondSuffixTest, InvalidCodesHaveNoSuffix) {
  EXPECT_EQ(CondSuffix(X86Cond::kG), "g");
  EXPECT_EQ(CondSuffix(static_cast<X86Cond>(16)), "<bad cc>");
  EXPECT_EQ(ExpectedAtt(Form::kAddRR, {kRax, kRbx, kNoGpr, 0, 0, static_cast<X86Cond>(17)}),
            "addq %rbx, %rax");
}

TEST_F(EmitTest, PcRelativeOperandErrors) {
  codegen::CodeBuffer buf;
  for (Form f : {Form::kJcc, Form::kJmp, Form::kCallRel32}) {
    FormOperands ops;
    ops.imm = int64_t{INT32_MAX} + 1;
    EXPECT_FALSE(encoder_->Encode(f, ops, buf).ok()) << GetForm(f).llvm_name;
    ops.imm = int64_t{INT32_MIN} - 1;
    EXPECT_FALSE(encoder_->Encode(f, ops, buf).ok()) << GetForm(f).llvm_name;
  }
  FormOperands bad_cc;
  bad_cc.cc = static_cast<X86Cond>(16);
  EXPECT_FALSE(encoder_->Encode(Form::kJcc, bad_cc, buf).ok());
  EXPECT_EQ(buf.size(), 0u);
}

// The shared MC target and the pooled MCContext/MCCodeEmitter: encoders
// created and destroyed on several threads at once (as background compiler
// threads do) produce exactly the bytes of a single encoder, and an encoder
// taken back from the pool encodes the same as a fresh one.
TEST_F(EmitTest, ConcurrentEncodersMatchOneEncoder) {
  std::mt19937_64 rng(0xc0de);
  const int n = static_cast<int>(Form::kNumForms);
  std::vector<Form> forms;
  std::vector<FormOperands> all;
  for (int i = 0; i < 500; ++i) {
    Form f = static_cast<Form>(rng() % n);
    FormOperands ops;
    ops.dst = static_cast<Gpr>(rng() % 16);
    ops.src = static_cast<Gpr>(rng() % 16);
    ops.base = static_cast<Gpr>(rng() % 16);
    ops.disp = static_cast<int32_t>(rng());
    if (UsesImm(GetForm(f).layout)) ops.imm = ImmFor(f, rng);
    ops.cc = static_cast<X86Cond>(rng() % 16);
    forms.push_back(f);
    all.push_back(ops);
  }
  codegen::CodeBuffer reference;
  for (size_t i = 0; i < forms.size(); ++i) {
    ASSERT_TRUE(encoder_->Encode(forms[i], all[i], reference).ok()) << i;
  }
  constexpr int kThreads = 4;
  constexpr int kRounds = 20;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        absl::StatusOr<std::unique_ptr<McEncoder>> enc = McEncoder::Create();
        if (!enc.ok()) {
          failures[t] = std::string(enc.status().message());
          return;
        }
        codegen::CodeBuffer buf;
        for (size_t i = 0; i < forms.size(); ++i) {
          if (!(*enc)->Encode(forms[i], all[i], buf).ok()) {
            failures[t] = "encode failed at " + std::to_string(i);
            return;
          }
        }
        if (buf.bytes() != reference.bytes()) {
          failures[t] = "bytes differ in round " + std::to_string(round);
          return;
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

TEST_F(EmitTest, RandomizedRoundTrip) {
  std::mt19937_64 rng(0x5eed);
  const int n = static_cast<int>(Form::kNumForms);
  std::vector<Form> forms;
  std::vector<FormOperands> all;
  codegen::CodeBuffer stream;
  for (int i = 0; i < 5000; ++i) {
    Form f = static_cast<Form>(rng() % n);
    FormOperands ops;
    ops.dst = static_cast<Gpr>(rng() % 16);
    ops.src = static_cast<Gpr>(rng() % 16);
    const Layout l = GetForm(f).layout;
    if (l == Layout::kRM || l == Layout::kMR || l == Layout::kMI) {
      ops.base = static_cast<Gpr>(rng() % 16);
      ops.disp = static_cast<int32_t>(rng() % 3 == 0 ? static_cast<int8_t>(rng()) : rng());
    }
    if (UsesImm(l)) ops.imm = ImmFor(f, rng);
    ops.cc = static_cast<X86Cond>(rng() % 16);
    ASSERT_EQ(RoundTrip(f, ops), "") << "iteration " << i;
    ASSERT_TRUE(encoder_->Encode(f, ops, stream).ok());
    forms.push_back(f);
    all.push_back(ops);
  }
  // The concatenation decodes back into the same instruction sequence.
  auto decoded = disasm_->Decode(stream.bytes(), 0x1000);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), forms.size());
  for (size_t i = 0; i < forms.size(); ++i) {
    ASSERT_EQ((*decoded)[i].text, ExpectedAtt(forms[i], all[i])) << i;
  }
}

}  // namespace
}  // namespace morel::x86_64
