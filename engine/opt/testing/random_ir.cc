#include "engine/opt/testing/random_ir.h"

#include <algorithm>
#include <random>
#include <utility>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/ir/builder.h"
#include "engine/ir/interpreter.h"
#include "testing/fuzz/byte_reader.h"

namespace morel::opt::testing {
namespace {

using ir::Block;
using ir::Builder;
using ir::Opcode;
using ir::Type;
using ir::Value;

class Generator {
 public:
  Generator(uint32_t seed, const RandomIrOptions& options) : rng_(seed), options_(options) {}
  // Every choice from `choices` instead of a pseudo-random sequence.
  Generator(fuzz::ByteReader* choices, const RandomIrOptions& options)
      : choices_(choices), options_(options) {}

  std::unique_ptr<ir::Function> Build() {
    auto f = std::make_unique<ir::Function>("random", std::vector<Type>(3, Type::kI64),
                                            std::vector<Type>{Type::kI64});
    Builder b(f.get());
    const int num_blocks = Pick(options_.min_blocks, options_.max_blocks);
    std::vector<Block*> blocks = {b.CreateEntryBlock()};
    for (int i = 1; i < num_blocks; ++i) {
      Block* block = b.CreateBlock();
      int params = Pick(0, 2);
      for (int p = 0; p < params; ++p) b.AddBlockParam(block, Type::kI64);
      blocks.push_back(block);
    }
    std::vector<Value*> entry_ints(blocks[0]->params().begin(), blocks[0]->params().end());
    std::vector<Value*> entry_bools;
    for (int i = 0; i < num_blocks; ++i) {
      b.SetInsertionPoint(blocks[i]);
      // Values usable here: the entry block's (it dominates everything) and
      // this block's own.
      ints_ = i == 0 ? entry_ints
                     : Concat(entry_ints, {blocks[i]->params().begin(), blocks[i]->params().end()});
      bools_ = i == 0 ? std::vector<Value*>{} : entry_bools;
      objects_ = i == 0 ? std::vector<Value*>{} : entry_objects_;
      known_ptr_fields_.clear();
      const int n = Pick(options_.min_block_steps, options_.max_block_steps);
      for (int k = 0; k < n; ++k) Emit(b, i);
      if (i == 0) {
        entry_ints = ints_;
        entry_bools = bools_;
        entry_objects_ = objects_;
      }
      Terminate(b, blocks, i);
    }
    return f;
  }

 private:
  int Pick(int lo, int hi) {
    if (choices_ != nullptr) return static_cast<int>(choices_->Int(lo, hi));
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  template <typename T>
  T* Any(const std::vector<T*>& v) { return v[Pick(0, static_cast<int>(v.size()) - 1)]; }
  static std::vector<Value*> Concat(std::vector<Value*> a, const std::vector<Value*>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }
  Value* Bool(Builder& b) {
    if (bools_.empty() || Pick(0, 4) == 0) {
      Value* v = b.ICmp(static_cast<ir::Cond>(Pick(0, ir::kNumConds - 1)), Any(ints_), Any(ints_));
      bools_.push_back(v);
      return v;
    }
    return Any(bools_);
  }
  int64_t Constant() {
    static constexpr int64_t kInteresting[] = {0, 1, -1, 2, 3, 7, 64, INT64_MAX, INT64_MIN};
    return Pick(0, 3) != 0 ? kInteresting[Pick(0, 8)] : Pick(-100, 100);
  }

  void Emit(Builder& b, int block_index) {
    static constexpr Opcode kBinary[] = {
        Opcode::kIadd, Opcode::kIsub, Opcode::kImul, Opcode::kAnd, Opcode::kOr,
        Opcode::kXor, Opcode::kShl, Opcode::kLshr, Opcode::kAshr};
    static constexpr Opcode kOverflow[] = {Opcode::kIaddOverflows, Opcode::kIsubOverflows,
                                           Opcode::kImulOverflows};
    if (options_.objects && Pick(0, 2) == 0) {
      EmitObjects(b, block_index);
      return;
    }
    switch (Pick(0, 11)) {
      case 0:
      case 1:
        ints_.push_back(b.I64(Constant()));
        break;
      case 2:
      case 3:
      case 4:
        // Often against a fresh constant, to exercise folding and identities.
        ints_.push_back(b.Binary(kBinary[Pick(0, 8)], Any(ints_),
                                 Pick(0, 1) ? b.I64(Constant()) : Any(ints_)));
        break;
      case 5:
        bools_.push_back(b.Binary(kOverflow[Pick(0, 2)], Any(ints_), Any(ints_)));
        break;
      case 6:
        Bool(b);
        break;
      case 7:
        ints_.push_back(b.Select(Bool(b), Any(ints_), Any(ints_)));
        break;
      case 8: {  // sdiv by a safe constant
        int64_t d = Pick(2, 9) * (Pick(0, 1) ? 1 : -1);
        ints_.push_back(b.Binary(Pick(0, 1) ? Opcode::kSdiv : Opcode::kSrem, Any(ints_), b.I64(d)));
        break;
      }
      case 9: {  // i32 round trip
        Value* narrow = b.Convert(Opcode::kTrunc, Type::kI32, Any(ints_));
        ints_.push_back(b.Convert(Pick(0, 1) ? Opcode::kSext : Opcode::kZext, Type::kI64, narrow));
        break;
      }
      case 10: {  // guard with a frame state over live values
        ir::FrameState* fs = b.CreateFrameState(ir::DeoptKind::kEager, block_index,
                                                static_cast<int64_t>(ints_.size()),
                                                {{Any(ints_), Any(ints_)}, ir::ValuePair::Illegal()},
                                                {{Any(ints_), Any(ints_)}});
        // Mostly guards that hold (so runs get past them), sometimes any
        // condition.
        Value* c = Pick(0, 3) != 0 ? b.ICmp(ir::Cond::kNe, Any(ints_), b.I64(12345)) : Bool(b);
        if (Pick(0, 2) == 0) c = b.Unary(Opcode::kNot, b.Unary(Opcode::kNot, c));
        b.Guard(c, fs, "g" + std::to_string(ints_.size()));
        break;
      }
      case 11: {  // a redundant recomputation of an earlier pure instruction
        Value* v = Any(ints_);
        if (ir::Instruction* def = v->instruction();
            def != nullptr && def->info().format == ir::OpFormat::kBinary) {
          ints_.push_back(b.Binary(def->opcode(), def->operand(0), def->operand(1)));
        }
        break;
      }
    }
  }

  // Objects of 1 to 4 words; sizes are recorded so accesses stay in bounds.
  void EmitObjects(Builder& b, int block_index) {
    if (objects_.empty() || Pick(0, 5) == 0) {
      Value* o = b.Alloc(8 * Pick(1, 4));
      objects_.push_back(o);
      return;
    }
    // Words [0, ints) hold integers, the rest objects (or zero): an
    // address never becomes an integer of the function.
    Value* o = Any(objects_);
    const int words = static_cast<int>(o->instruction()->imm() / 8);
    const int ints = (words + 1) / 2;
    const int32_t int_offset = 8 * Pick(0, ints - 1);
    const int32_t ptr_offset = words > ints ? 8 * Pick(ints, words - 1) : -1;
    switch (Pick(0, 7)) {
      case 0:
      case 1:
        b.Store(Any(ints_), o, int_offset);
        break;
      case 2:
        ints_.push_back(b.Load(Type::kI64, o, int_offset));
        break;
      case 3:  // an object into a field; read back as a pointer while known
        if (ptr_offset < 0) break;
        b.Store(Any(objects_), o, ptr_offset);
        known_ptr_fields_.push_back({o, ptr_offset});
        break;
      case 4: {
        const auto& known = known_ptr_fields_;
        if (known.empty()) break;
        auto [base, at] = known[Pick(0, static_cast<int>(known.size()) - 1)];
        Value* loaded = b.Load(Type::kPtr, base, at);
        // Word 0 of every object is an integer.
        ints_.push_back(b.Load(Type::kI64, loaded, 0));
        break;
      }
      case 5:
        bools_.push_back(b.ICmp(Pick(0, 1) ? ir::Cond::kEq : ir::Cond::kNe, o, Any(objects_)));
        break;
      case 6: {  // a guard whose frame state holds the object
        Value* payload = b.Convert(Opcode::kBitcast, Type::kI64, o);
        ir::FrameState* fs = b.CreateFrameState(ir::DeoptKind::kEager, block_index, 7,
                                                {{payload, Any(ints_)}}, {});
        b.Guard(b.ICmp(ir::Cond::kNe, Any(ints_), b.I64(Pick(0, 3) == 0 ? 0 : 12345)), fs,
                "object");
        break;
      }
      case 7:  // escapes
        if (options_.escape_slot != nullptr) {
          b.Store(o, b.PConst(reinterpret_cast<uint64_t>(options_.escape_slot)), 0);
        }
        break;
    }
  }

  void Terminate(Builder& b, const std::vector<Block*>& blocks, int i) {
    const int n = static_cast<int>(blocks.size());
    auto args_for = [&](Block* target) {
      std::vector<Value*> args;
      for (size_t k = 0; k < target->params().size(); ++k) args.push_back(Any(ints_));
      return args;
    };
    // With all_blocks_reachable, every block but the last jumps or branches
    // to the next one (the other arm of a br still goes anywhere forward).
    const bool chain = options_.all_blocks_reachable && i + 1 < n;
    if (options_.loop_counter != nullptr && i > 0 && i + 1 < n && Pick(0, 2) == 0) {
      std::vector<Block*> headers;
      for (int j = 1; j <= i; ++j) {
        if (Dominates(blocks, j, i)) headers.push_back(blocks[j]);
      }
      if (!headers.empty()) {
        Block* header = Any(headers);
        Value* counter = b.PConst(reinterpret_cast<uint64_t>(options_.loop_counter));
        Value* count = b.Binary(Opcode::kIadd, b.Load(Type::kI64, counter, 0), b.I64(1));
        b.Store(count, counter, 0);
        Block* next = blocks[i + 1];
        b.Br(b.ICmp(ir::Cond::kSlt, count, b.I64(6)), header, args_for(header), next,
             args_for(next));
        return;
      }
    }
    int choice;
    if (chain) {
      choice = Pick(0, 2) == 0 ? 1 : 4;
    } else {
      choice = i + 1 >= n ? Pick(0, 5) == 0 ? 3 : 0 : Pick(0, 6);
    }
    if (choice == 0) {
      // Return a digest of every value available here, so that a wrong
      // rewrite of any of them shows.
      Value* digest = ints_[0];
      for (size_t k = 1; k < ints_.size(); ++k) {
        digest = b.Binary(Opcode::kXor, b.Binary(Opcode::kImul, digest, b.I64(31)), ints_[k]);
      }
      b.Return({digest});
    } else if (choice == 3) {
      ir::FrameState* fs = b.CreateFrameState(ir::DeoptKind::kEager, i, 99, {},
                                              {{Any(ints_), Any(ints_)}});
      b.Deopt(fs, "deopt");
    } else if (choice <= 2) {
      Block* t = chain ? blocks[i + 1] : blocks[Pick(i + 1, n - 1)];
      b.Jump(t, args_for(t));
    } else {
      Block* t = chain ? blocks[i + 1] : blocks[Pick(i + 1, n - 1)];
      Block* e = blocks[Pick(i + 1, n - 1)];
      Value* c = Pick(0, 3) == 0 ? b.Bool(Pick(0, 1)) : Bool(b);
      b.Br(c, t, args_for(t), e, args_for(e));
    }
  }

  // Whether every path from the entry to blocks[to] passes blocks[from],
  // over the edges of the blocks terminated so far (all edges into blocks
  // up to the current one).
  static bool Dominates(const std::vector<Block*>& blocks, int from, int to) {
    if (from == to) return true;
    std::vector<const Block*> work = {blocks[0]};
    std::vector<const Block*> seen = {blocks[0]};
    while (!work.empty()) {
      const Block* b = work.back();
      work.pop_back();
      if (b == blocks[to]) return false;
      const ir::Instruction* term = b->terminator();
      if (term == nullptr) continue;
      for (const ir::BlockCall& t : term->targets()) {
        if (t.block == blocks[from]) continue;
        if (std::find(seen.begin(), seen.end(), t.block) != seen.end()) continue;
        seen.push_back(t.block);
        work.push_back(t.block);
      }
    }
    return true;
  }

  std::mt19937 rng_;
  fuzz::ByteReader* choices_ = nullptr;
  const RandomIrOptions& options_;
  std::vector<Value*> ints_;
  std::vector<Value*> bools_;
  std::vector<Value*> objects_;
  std::vector<Value*> entry_objects_;
  // (object, offset) holding an object, as stored in this block.
  std::vector<std::pair<Value*, int32_t>> known_ptr_fields_;
};

}  // namespace

std::unique_ptr<ir::Function> RandomFunction(uint32_t seed, const RandomIrOptions& options) {
  return Generator(seed, options).Build();
}

std::unique_ptr<ir::Function> RandomFunctionFromBytes(absl::Span<const uint8_t> choices,
                                                     const RandomIrOptions& options) {
  fuzz::ByteReader reader(choices.data(), choices.size());
  return Generator(&reader, options).Build();
}

int64_t CountInstructions(const ir::Function& function) { return function.InstructionCount(); }

void* ComparisonHeap::Allocate(int64_t bytes) {
  words_.emplace_back(bytes / 8, 0);
  void* p = words_.back().data();
  objects_[reinterpret_cast<int64_t>(p)] = &words_.back();
  return p;
}

std::string ComparisonHeap::Describe(int64_t x, std::map<int64_t, int>& seen) const {
  auto it = objects_.find(x);
  if (it == objects_.end()) return absl::StrCat(x);
  auto [number, fresh] = seen.try_emplace(x, static_cast<int>(seen.size()));
  if (!fresh) return absl::StrCat("@", number->second);
  std::vector<std::string> fields;
  for (int64_t word : *it->second) fields.push_back(Describe(word, seen));
  return absl::StrCat("@", number->second, "{", absl::StrJoin(fields, ","), "}");
}

std::string ExecuteForComparison(const ir::Function& f, const std::vector<int64_t>& args,
                                 int64_t* loop_counter) {
  if (loop_counter != nullptr) *loop_counter = 0;
  ComparisonHeap heap;
  ir::InterpreterOptions options;
  options.allocate = [&](int64_t bytes) { return heap.Allocate(bytes); };
  auto r = ir::Interpret(f, args, options);
  if (!r.ok()) return "error: " + std::string(r.status().message());
  if (r->kind == ir::ExecutionResult::Kind::kReturned) return ir::DebugString(*r);
  std::vector<void*> addresses(r->objects.size());
  ir::MaterializeDeoptObjects(r->objects, options.allocate, absl::MakeSpan(addresses), r->frames);
  std::string out = absl::StrCat("deoptimized \"", r->reason, "\"");
  std::map<int64_t, int> seen;
  for (const ir::DeoptFrame& frame : r->frames) {
    for (const auto* slots : {&frame.locals, &frame.stack}) {
      for (const ir::DeoptFrame::Slot& slot : *slots) {
        absl::StrAppend(&out, " ",
                        slot.legal ? absl::StrCat(heap.Describe(slot.payload, seen), ":",
                                                  slot.tag)
                                   : "illegal");
      }
    }
  }
  return out;
}

}  // namespace morel::opt::testing
