#include "engine/opt/escape_analysis.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "engine/ir/cfg.h"
#include "engine/ir/dominators.h"
#include "engine/opt/rewrite_util.h"

namespace morel::opt {
namespace {

using ir::Block;
using ir::Function;
using ir::Instruction;
using ir::Opcode;
using ir::Type;
using ir::Value;

// Restarts of loops before the analysis gives up (leaving the function as
// it was). Each restart adds a fact to a loop's requests, so the number is
// bounded anyway; this bounds the work on pathological functions.
constexpr int kMaxRestarts = 200;

bool IsWord(Type t) { return t == Type::kI64 || t == Type::kPtr; }

// A loop header's object that stands for the previous iteration's record
// may stand, before the loop's first iteration assigns the local, for the
// value the entry edge passed instead (OSR code: the interpreter's object).
// Two pseudo-fields below offset 0, where no access fits, carry that
// condition (1 on the entry edge, 0 on back edges) and that value through
// merges and loop parameters like any field; frame states name them as the
// object's existing value (ir::VirtualObject::existing_if), and
// materializing the object selects the value where the condition holds.
constexpr int32_t kExistingIfOffset = -16;
constexpr int32_t kExistingOffset = -8;

// A field of a virtual object: a value, or the address of an object.
struct Field {
  int32_t offset = 0;
  Type type = Type::kI64;
  Value* value = nullptr;
  int object = -1;
  const ir::AliasClass* alias = nullptr;

  bool SameContent(const Field& o) const {
    return offset == o.offset && type == o.type && value == o.value && object == o.object;
  }
};

struct ObjectState {
  bool is_virtual = true;
  Value* materialized = nullptr;  // the ptr, once materialized
  std::vector<Field> fields;      // by offset, not overlapping; absent = zero

  const Field* FieldAt(int32_t offset) const {
    for (const Field& f : fields) {
      if (f.offset == offset) return &f;
    }
    return nullptr;
  }
};

// What the analysis knows at a program point: the state of every object
// allocated on all paths to it.
struct State {
  std::map<int, ObjectState> objects;
};

struct Edge {
  Block* from = nullptr;
  Instruction* terminator = nullptr;
  int target = 0;
};

// Where new instructions go: before `before`, or (null) on `edge`: before
// the terminator of its source, or in a block of its own when the source
// has two successors (so the other path does not run them).
struct InsertPoint {
  Instruction* before = nullptr;
  Edge edge;
};

// A block parameter the analysis adds (a merged field or address); its
// value is a placeholder until the IR is changed.
struct Phi {
  Block* block = nullptr;
  Value* placeholder = nullptr;
  Type type = Type::kI64;
  std::vector<std::pair<Edge, Value*>> args;  // filled by effects
};

// Requests a restarted loop header honours.
struct LoopRequests {
  std::set<int> materialize;           // objects materialized before the loop
  std::set<const Value*> plain_params;  // parameters that are not one object
  std::map<std::pair<int, int32_t>, Type> field_phis;
  // Slot-only parameters (FindSlotOnlyParams) that receive a virtual object on
  // the back edge: the header holds that object's predecessor as object
  // `object` with a parameter per field. `no_maybe`: parameters found not
  // to fit (the object escapes in the loop, or is not one record).
  struct MaybeField {
    Type type = Type::kI64;
    const ir::AliasClass* alias = nullptr;
    // The value the entry edge passes: any will do (the slot is unassigned
    // there); the constant the back edge stores, if it stores one, makes the
    // parameter trivial after GVN.
    int64_t entry_bits = 0;
  };
  struct MaybeObject {
    int object = -1;
    std::map<int32_t, MaybeField> fields;
    // On entry, the object is the value the entry edge passes (the
    // kExistingIfOffset and kExistingOffset pseudo-fields are in `fields`).
    bool existing = false;
    // Fields of the iteration's record that name a record of its own (SL:
    // an object's out-of-line property storage), carried the same way:
    // offset -> that record's header object and its fields. One level.
    struct Nested {
      int object = -1;
      Type type = Type::kPtr;  // the naming field's
      const ir::AliasClass* alias = nullptr;
      std::map<int32_t, MaybeField> fields;
    };
    std::map<int32_t, Nested> nested;
  };
  std::map<const Value*, MaybeObject> maybe_objects;
  std::set<const Value*> no_maybe;
};

struct LoopSpec {
  State state;                                  // at the header, speculated
  absl::flat_hash_map<const Value*, int> param_objects;  // parameter -> object
  absl::flat_hash_map<std::pair<int, int32_t>, int> field_phis;  // -> phis_ index
  // Objects materialized on the entry edges whose addresses differ: the
  // header parameter (phis_ index) each back edge must feed too.
  std::vector<std::pair<int, int>> object_phis;
  // Slot-only parameter -> the header object it names (maybe_objects).
  absl::flat_hash_map<const Value*, int> maybe_params;
  std::optional<Edge> entry;  // the one entry edge, if there is one
};

struct RestartRequest {
  Block* header = nullptr;
};

class Analysis {
 public:
  Analysis(Function& f, PassContext& ctx) : f_(f), ctx_(ctx) {}

  // Returns whether the function changed.
  absl::StatusOr<bool> Run() {
    bool any_alloc = false;
    for (Block* b : f_.blocks()) {
      for (Instruction* inst : b->instructions()) any_alloc |= inst->opcode() == Opcode::kAlloc;
    }
    if (!any_alloc) return false;
    rpo_ = ir::ReversePostorder(f_);
    for (size_t i = 0; i < rpo_.size(); ++i) rpo_index_[rpo_[i]] = static_cast<int>(i);
    for (Block* b : rpo_) {
      Instruction* term = b->terminator();
      if (term == nullptr) return false;
      for (size_t t = 0; t < term->targets().size(); ++t) {
        edges_in_[term->targets()[t].block].push_back(Edge{b, term, static_cast<int>(t)});
      }
    }
    // Only reducible control flow: every edge to an earlier block in RPO
    // goes to a loop header that dominates its source.
    ir::DominatorTree dom(f_);
    for (Block* b : rpo_) {
      for (const Edge& e : edges_in_[b]) {
        if (rpo_index_.at(e.from) >= rpo_index_.at(b)) {
          if (!dom.Dominates(b, e.from)) return false;
          headers_.insert(b);
        }
      }
    }
    ComputeLiveness();
    FindSlotOnlyParams();
    end_state_.assign(rpo_.size(), std::nullopt);
    int restarts = 0;
    for (size_t pos = 0; pos < rpo_.size();) {
      Block* b = rpo_[pos];
      if (headers_.contains(b)) marks_[b] = {effects_.size(), phis_.size()};
      std::optional<RestartRequest> restart = ProcessBlock(b, pos);
      if (failed_) return false;
      if (restart) {
        if (++restarts > kMaxRestarts) return false;
        auto [effects, phis] = marks_.at(restart->header);
        effects_.resize(effects);
        phis_.resize(phis);
        pos = rpo_index_.at(restart->header);
        for (size_t i = pos; i < rpo_.size(); ++i) end_state_[i].reset();
        continue;
      }
      ++pos;
    }
    if (!virtualized_) return false;
    Apply();
    return true;
  }

 private:
  // ------------------------------------------------------------ liveness
  // live_in_[b]: the values (by id) used in b or after it before being
  // redefined -- operands, block arguments and frame-state inputs. Objects
  // none of whose names is live at a merge are not merged (materializing
  // an object nobody reads again would only allocate garbage).
  void ComputeLiveness() {
    const size_t words = (f_.value_id_bound() + 63) / 64;
    for (Block* b : rpo_) live_in_[b].assign(words, 0);
    auto set = [](std::vector<uint64_t>& bits, const Value* v) {
      if (v != nullptr) bits[v->id() / 64] |= uint64_t{1} << (v->id() % 64);
    };
    auto clear = [](std::vector<uint64_t>& bits, const Value* v) {
      bits[v->id() / 64] &= ~(uint64_t{1} << (v->id() % 64));
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = rpo_.rbegin(); it != rpo_.rend(); ++it) {
        Block* b = *it;
        std::vector<uint64_t> live(words, 0);
        const Instruction* term = b->terminator();
        for (const ir::BlockCall& t : term->targets()) {
          const std::vector<uint64_t>& in = live_in_[t.block];
          for (size_t w = 0; w < words; ++w) live[w] |= in[w];
          for (const Value* p : t.block->params()) clear(live, p);
        }
        for (const ir::BlockCall& t : term->targets()) {
          for (const Value* a : t.args) set(live, a);
        }
        const auto& insts = b->instructions();
        for (auto i = insts.rbegin(); i != insts.rend(); ++i) {
          for (const Value* r : (*i)->results()) clear(live, r);
          for (const Value* o : (*i)->operands()) set(live, o);
          for (ir::FrameState* fs = (*i)->frame_state(); fs != nullptr; fs = fs->parent) {
            fs->ForEachValue([&](Value*& v) { set(live, v); });
          }
        }
        if (live != live_in_[b]) {
          live_in_[b] = std::move(live);
          changed = true;
        }
      }
    }
  }

  // ------------------------------------------------ slot-only parameters
  // slot_only_: the loop-header parameters whose every use is the payload
  // of frame-state slots with one tag, another parameter of the same header
  // (parameter -> tag). A local that gets a new record in each iteration
  // and is unassigned before the loop is one: it is carried to the header
  // only for the frame states, and its tag on the entry edge is
  // ir::kUnassignedTag, which makes a slot unassigned whatever its payload
  // (frame_state.h). Such a parameter can name a virtual object on every
  // edge: on the entry edge a zero-filled one that a deoptimization
  // allocates and drops.
  // existing_ok_: the parameters whose uses in the loop are frame-state
  // payloads (any tags) and whose uses after it are those or values stored
  // to memory (OSR code stores every local back to the interpreter's frame
  // when the loop exits). Such a parameter can name an object that, until
  // the loop assigns the local, is the value the entry edge passed
  // (kExistingIfOffset).
  void FindSlotOnlyParams() {
    struct Uses {
      bool only_slots = true;     // in the loop: frame-state payloads only
      bool stored_after = false;  // after it: also stored to memory
      bool one_tag = true;
      const Value* tag = nullptr;
    };
    absl::flat_hash_map<const Value*, Uses> uses;
    for (const Block* h : headers_) {
      for (const Value* p : h->params()) {
        if (IsWord(p->type())) uses[p];
      }
    }
    if (uses.empty()) return;
    const absl::flat_hash_map<const Block*, absl::flat_hash_set<const Block*>> bodies =
        LoopBodies();
    auto other_use = [&](const Value* v) {
      if (auto it = uses.find(v); it != uses.end()) it->second.only_slots = false;
    };
    for (Block* b : rpo_) {
      for (Instruction* inst : b->instructions()) {
        for (size_t i = 0; i < inst->operands().size(); ++i) {
          const Value* o = inst->operand(static_cast<int>(i));
          auto it = uses.find(o);
          if (it == uses.end()) continue;
          if (inst->opcode() == Opcode::kStore && i == 0 &&
              !bodies.at(o->param_block()).contains(b)) {
            it->second.stored_after = true;
          } else {
            it->second.only_slots = false;
          }
        }
        for (const ir::BlockCall& t : inst->targets()) {
          for (const Value* a : t.args) other_use(a);
        }
        for (ir::FrameState* fs = inst->frame_state(); fs != nullptr; fs = fs->parent) {
          for (std::vector<ir::ValuePair>* slots : {&fs->locals, &fs->stack}) {
            for (ir::ValuePair& p : *slots) {
              if (p.object != nullptr) {
                ir::FrameState::ForEachValueOf(p.object, [&](Value*& v) { other_use(v); });
              }
              other_use(p.tag);
              auto it = p.payload != nullptr ? uses.find(p.payload) : uses.end();
              if (it == uses.end()) continue;
              if (p.tag == nullptr || (it->second.tag != nullptr && it->second.tag != p.tag)) {
                it->second.one_tag = false;
              }
              it->second.tag = p.tag;
            }
          }
        }
      }
    }
    for (const auto& [param, u] : uses) {
      if (!u.only_slots) continue;
      existing_ok_.insert(param);
      if (u.stored_after || !u.one_tag || u.tag == nullptr) continue;
      if (u.tag->param_block() != param->param_block()) continue;
      slot_only_[param] = u.tag;
    }
  }

  // The blocks of each loop: its header and the blocks that reach one of
  // its back edges without passing through the header.
  absl::flat_hash_map<const Block*, absl::flat_hash_set<const Block*>> LoopBodies() const {
    absl::flat_hash_map<const Block*, absl::flat_hash_set<const Block*>> bodies;
    for (const Block* h : headers_) {
      absl::flat_hash_set<const Block*>& body = bodies[h];
      body.insert(h);
      std::vector<const Block*> work;
      for (const Edge& e : edges_in_.at(h)) {
        if (rpo_index_.at(e.from) >= rpo_index_.at(h)) work.push_back(e.from);
      }
      while (!work.empty()) {
        const Block* b = work.back();
        work.pop_back();
        if (!body.insert(b).second) continue;
        auto in = edges_in_.find(b);
        if (in == edges_in_.end()) continue;
        for (const Edge& e : in->second) work.push_back(e.from);
      }
    }
    return bodies;
  }

  // Whether `v` is the constant ir::kUnassignedTag.
  static bool IsUnassignedTag(const Value* v) {
    const Instruction* def = v->instruction();
    return def != nullptr && def->opcode() == Opcode::kIconst && def->imm() == ir::kUnassignedTag;
  }

  // Whether slot-only parameter `param` of `h` may name a virtual object
  // entering by `entry`: it carries no object in, and its tag is 0 there.
  bool MayEnterUnassigned(const Value* param, const Edge& entry) const {
    auto it = slot_only_.find(param);
    if (it == slot_only_.end()) return false;
    const auto& args = entry.terminator->targets()[entry.target].args;
    return ObjectOf(args[param->index()]) < 0 && IsUnassignedTag(args[it->second->index()]);
  }

  // Whether parameter `param` of `h` may name a header object that stands
  // for the value `entry` passes until the loop assigns the local: its
  // uses allow it (existing_ok_) and it carries no object in.
  bool MayEnterExisting(const Value* param, const Edge& entry) const {
    if (!existing_ok_.contains(param)) return false;
    const auto& args = entry.terminator->targets()[entry.target].args;
    return ObjectOf(args[param->index()]) < 0;
  }

  // The objects some live value of `b` names, and those their fields (in
  // any of `states`) reference.
  std::set<int> LiveObjects(Block* b, const std::vector<State>& states) const {
    std::vector<int> seeds;
    const std::vector<uint64_t>& live = live_in_.at(b);
    for (const auto& [value, o] : alias_) {
      const uint32_t id = value->id();
      if (live[id / 64] >> (id % 64) & 1) seeds.push_back(o);
    }
    for (const Value* p : b->params()) {
      if (int o = ObjectOf(p); o >= 0) seeds.push_back(o);
    }
    std::set<int> reached;
    while (!seeds.empty()) {
      int o = seeds.back();
      seeds.pop_back();
      if (!reached.insert(o).second) continue;
      for (const State& s : states) {
        auto it = s.objects.find(o);
        if (it == s.objects.end()) continue;
        for (const Field& f : it->second.fields) {
          if (f.object >= 0) seeds.push_back(f.object);
        }
      }
    }
    return reached;
  }

  // ------------------------------------------------------------ helpers
  int ObjectOf(const Value* v) const {
    auto it = alias_.find(v);
    return it == alias_.end() ? -1 : it->second;
  }

  void Fail() { failed_ = true; }

  void Insert(InsertPoint at, Instruction* inst) {
    if (at.before == nullptr && at.edge.terminator->targets().size() > 1) {
      split_edges_.insert({at.edge.terminator, at.edge.target});
    }
    effects_.push_back([this, at, inst] {
      if (at.before != nullptr) {
        at.before->block()->InsertBefore(at.before, inst);
        return;
      }
      auto [term, target] = ResolveEdge(at.edge);
      term->block()->InsertBefore(term, inst);
    });
  }

  // The terminator and target an edge's arguments and instructions go to
  // once critical edges are split (Apply).
  std::pair<Instruction*, int> ResolveEdge(const Edge& e) const {
    auto it = split_jumps_.find({e.terminator, e.target});
    if (it != split_jumps_.end()) return {it->second, 0};
    return {e.terminator, e.target};
  }

  Instruction* NewInst(Opcode op, std::vector<Type> results) {
    return f_.CreateInstruction(op, results);
  }

  // A constant, created once and put at the start of the entry block.
  Value* Constant(Type type, int64_t bits) {
    auto key = std::make_pair(type, bits);
    if (auto it = constants_.find(key); it != constants_.end()) return it->second;
    Value* v;
    if (type == Type::kPtr) {
      Instruction* c = NewInst(Opcode::kPconst, {Type::kPtr});
      c->set_imm(bits);
      constant_insts_.push_back(c);
      v = c->result();
    } else if (type == Type::kF64) {
      Instruction* c = NewInst(Opcode::kIconst, {Type::kI64});
      c->set_type_suffix(Type::kI64);
      c->set_imm(bits);
      Instruction* cast = NewInst(Opcode::kBitcast, {Type::kF64});
      cast->set_type_suffix(Type::kF64);
      cast->mutable_operands().push_back(c->result());
      constant_insts_.push_back(c);
      constant_insts_.push_back(cast);
      v = cast->result();
    } else {
      Instruction* c = NewInst(Opcode::kIconst, {type});
      c->set_type_suffix(type);
      c->set_imm(bits);
      constant_insts_.push_back(c);
      v = c->result();
    }
    constants_[key] = v;
    return v;
  }

  Value* Bitcast(Value* v, Type to, InsertPoint at) {
    if (v->type() == to) return v;
    Instruction* cast = NewInst(Opcode::kBitcast, {to});
    cast->set_type_suffix(to);
    cast->mutable_operands().push_back(v);
    Insert(at, cast);
    return cast->result();
  }

  void RemoveInst(Instruction* inst) {
    effects_.push_back([this, inst] { to_remove_.push_back(inst); });
  }
  void ReplaceValue(Value* from, Value* to) {
    effects_.push_back([this, from, to] { substitution_.Replace(from, to); });
  }
  void SetOperand(Instruction* inst, int i, Value* v) {
    effects_.push_back([inst, i, v] { inst->set_operand(i, v); });
  }
  void SetArg(const Edge& e, int i, Value* v) {
    effects_.push_back([this, e, i, v] {
      auto [term, t] = ResolveEdge(e);
      term->mutable_targets()[t].args[i] = v;
    });
  }
  int NewPhi(Block* block, Type type) {
    Instruction* placeholder = NewInst(type == Type::kPtr ? Opcode::kPconst : Opcode::kIconst,
                                       {type});
    phis_.push_back(Phi{block, placeholder->result(), type, {}});
    return static_cast<int>(phis_.size()) - 1;
  }
  void AddPhiArg(int phi, const Edge& e, Value* v) {
    effects_.push_back([this, phi, e, v] { phis_[phi].args.push_back({e, v}); });
  }

  // Materializes `object` (and the virtual objects reachable from it) at
  // `at`; returns its address.
  Value* Materialize(State& s, int object, InsertPoint at) {
    ObjectState& os = s.objects.at(object);
    if (!os.is_virtual) return os.materialized;
    const std::set<int> reached = Reach(s, {object});
    const std::vector<int> group(reached.begin(), reached.end());
    std::vector<std::vector<Field>> fields;
    std::vector<Value*> allocated;
    for (int o : group) {
      ObjectState& g = s.objects.at(o);
      Instruction* alloc = NewInst(Opcode::kAlloc, {Type::kPtr});
      alloc->set_imm(sizes_[o]);
      Insert(at, alloc);
      Value* address = alloc->result();
      const Field* existing_if = g.FieldAt(kExistingIfOffset);
      const Field* existing = g.FieldAt(kExistingOffset);
      if (existing_if != nullptr && existing != nullptr) {
        // The existing value where the condition holds (the new object is
        // then garbage: only the exit of an OSR loop that ran no iteration
        // pays for it).
        Instruction* holds = NewInst(Opcode::kIcmp, {Type::kI1});
        holds->set_cond(ir::Cond::kNe);
        holds->mutable_operands().push_back(Bitcast(existing_if->value, Type::kI64, at));
        holds->mutable_operands().push_back(Constant(Type::kI64, 0));
        Insert(at, holds);
        Instruction* select = NewInst(Opcode::kSelect, {Type::kPtr});
        select->mutable_operands().push_back(holds->result());
        select->mutable_operands().push_back(Bitcast(existing->value, Type::kPtr, at));
        select->mutable_operands().push_back(address);
        Insert(at, select);
        address = select->result();
      }
      allocated.push_back(alloc->result());
      fields.push_back(std::move(g.fields));
      g = ObjectState{false, address, {}};
    }
    for (size_t i = 0; i < group.size(); ++i) {
      // Into the new object, not an existing one.
      Value* base = allocated[i];
      for (const Field& field : fields[i]) {
        if (field.offset < 0) continue;  // kExistingIfOffset, kExistingOffset
        if (field.object >= 0 && !s.objects.contains(field.object)) {
          Fail();
          continue;
        }
        Value* v = field.object >= 0
                       ? Bitcast(s.objects.at(field.object).materialized, field.type, at)
                       : field.value;
        Instruction* store = NewInst(Opcode::kStore, {});
        store->set_type_suffix(field.type);
        store->set_imm(field.offset);
        store->set_alias_class(field.alias);
        store->mutable_operands().push_back(v);
        store->mutable_operands().push_back(base);
        Insert(at, store);
      }
    }
    return s.objects.at(object).materialized;
  }

  // The real value for a use of `v` (an object's address) at `at`.
  Value* Use(State& s, Value* v, InsertPoint at) {
    int o = ObjectOf(v);
    if (o < 0) return v;
    if (!s.objects.contains(o)) {
      Fail();
      return v;
    }
    return Bitcast(Materialize(s, o, at), v->type(), at);
  }

  // Whether virtual object `o` may stand for an existing value
  // (kExistingIfOffset): its fields are then not the value's.
  static bool MayBeExisting(const State& s, int o) {
    auto it = s.objects.find(o);
    return it != s.objects.end() && it->second.is_virtual &&
           it->second.FieldAt(kExistingIfOffset) != nullptr;
  }

  bool IsVirtual(const State& s, int o) const {
    auto it = s.objects.find(o);
    return it != s.objects.end() && it->second.is_virtual;
  }

  // Whether a `width`-byte access at `offset` fits object `o`'s layout:
  // in bounds, aligned, and either exactly a tracked field or overlapping
  // none.
  bool Fits(const ObjectState& os, int o, int32_t offset, Type type) const {
    const int width = ir::ByteWidth(type);
    if (type != Type::kI32 && type != Type::kI64 && type != Type::kPtr && type != Type::kF64) {
      return false;
    }
    if (offset < 0 || offset % width != 0 || offset + width > sizes_[o]) return false;
    for (const Field& f : os.fields) {
      const int fw = ir::ByteWidth(f.type);
      if (f.offset == offset) return fw == width;
      if (f.offset < offset + width && offset < f.offset + fw) return false;
    }
    return true;
  }

  void SetField(ObjectState& os, Field field) {
    for (Field& f : os.fields) {
      if (f.offset == field.offset) {
        f = field;
        return;
      }
    }
    os.fields.push_back(field);
    std::sort(os.fields.begin(), os.fields.end(),
              [](const Field& a, const Field& b) { return a.offset < b.offset; });
  }

  // ---------------------------------------------------- frame states
  // Rewrites the frame state chain of `inst` if it names objects: virtual
  // ones stay virtual when `eager`, else they are materialized first.
  void FixFrameState(State& s, Instruction* inst, bool eager) {
    bool names_objects = false;
    for (ir::FrameState* fs = inst->frame_state(); fs != nullptr; fs = fs->parent) {
      fs->ForEachValue([&](Value*& v) { names_objects |= ObjectOf(v) >= 0; });
    }
    if (!names_objects) return;
    InsertPoint at{inst, {}};
    // The virtual objects are made now (those of a loop pass that restarts
    // are never named by a frame state, so they are not part of the IR);
    // the frame states when the IR changes.
    absl::flat_hash_map<int, ir::VirtualObject*> made;
    std::function<ir::VirtualObject*(int)> virtual_object = [&](int o) {
      if (auto it = made.find(o); it != made.end()) return it->second;
      ir::VirtualObject* object = f_.CreateVirtualObject();
      object->size = sizes_[o];
      made[o] = object;
      for (const Field& f : s.objects.at(o).fields) {
        if (f.offset == kExistingIfOffset || f.offset == kExistingOffset) {
          (f.offset == kExistingIfOffset ? object->existing_if : object->existing) =
              Bitcast(f.value, Type::kI64, at);
          continue;
        }
        ir::VirtualObject::Field field{f.offset, f.type};
        if (f.object >= 0 && IsVirtual(s, f.object)) {
          field.object = virtual_object(f.object);
        } else if (f.object >= 0) {
          field.value = Bitcast(s.objects.at(f.object).materialized, f.type, at);
        } else {
          field.value = f.value;
        }
        object->fields.push_back(field);
      }
      return object;
    };
    auto slot = [&](const ir::ValuePair& p) {
      if (p.is_illegal()) return p;
      ir::ValuePair out;
      if (p.object != nullptr) {
        // An earlier run's virtual object stays as it is, unless its fields
        // name this run's objects (not handled: the analysis gives up).
        ir::FrameState::ForEachValueOf(p.object, [&](Value*& v) {
          if (ObjectOf(v) >= 0) Fail();
        });
        out.object = p.object;
      } else if (int o = ObjectOf(p.payload); o >= 0 && eager && IsVirtual(s, o)) {
        out.object = virtual_object(o);
      } else {
        out.payload = Use(s, p.payload, at);
      }
      out.tag = Use(s, p.tag, at);
      return out;
    };
    struct Frame {
      const ir::FrameState* original;
      std::vector<ir::ValuePair> locals, stack;
    };
    std::vector<Frame> frames;  // innermost first
    for (const ir::FrameState* fs = inst->frame_state(); fs != nullptr; fs = fs->parent) {
      Frame frame{fs, {}, {}};
      for (const ir::ValuePair& p : fs->locals) frame.locals.push_back(slot(p));
      for (const ir::ValuePair& p : fs->stack) frame.stack.push_back(slot(p));
      frames.push_back(std::move(frame));
    }
    effects_.push_back([this, inst, frames = std::move(frames)] {
      ir::FrameState* parent = nullptr;
      for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
        ir::FrameState* copy = f_.CreateFrameState();
        copy->kind = it->original->kind;
        copy->deopt_kind = it->original->deopt_kind;
        copy->call_target_id = it->original->call_target_id;
        copy->resume_point = it->original->resume_point;
        copy->locals = it->locals;
        copy->stack = it->stack;
        copy->parent = parent;
        parent = copy;
      }
      inst->set_frame_state(parent);
    });
  }

  // ------------------------------------------------------ instructions
  void ProcessInstruction(State& s, Instruction* inst) {
    // A restarted loop may decide differently for the same values.
    for (Value* r : inst->results()) alias_.erase(r);
    const auto& ops = inst->operands();
    InsertPoint here{inst, {}};
    switch (inst->opcode()) {
      case Opcode::kAlloc: {
        auto [it, fresh] = alloc_object_.try_emplace(inst, -1);
        if (fresh && ctx_.ConsumeFuel()) {
          it->second = static_cast<int>(sizes_.size());
          sizes_.push_back(inst->imm());
        }
        if (it->second < 0) return;
        virtualized_ = true;
        alias_[inst->result()] = it->second;
        s.objects[it->second] = ObjectState{};
        RemoveInst(inst);
        return;
      }
      case Opcode::kBitcast: {
        int o = ObjectOf(ops[0]);
        if (o >= 0 && IsWord(inst->type_suffix())) {
          alias_[inst->result()] = o;
          RemoveInst(inst);
          return;
        }
        break;
      }
      case Opcode::kStore: {
        int base = ObjectOf(ops[1]);
        if (base >= 0 && IsVirtual(s, base) &&
            Fits(s.objects.at(base), base, static_cast<int32_t>(inst->imm()),
                 inst->type_suffix())) {
          Field field;
          field.offset = static_cast<int32_t>(inst->imm());
          field.type = inst->type_suffix();
          field.alias = inst->alias_class();
          int stored = ObjectOf(ops[0]);
          if (stored >= 0 && IsWord(field.type) && MayBeExisting(s, stored)) {
            // An object that may stand for an existing value is read
            // through only as that value: stored as its (materialized)
            // address, never as a virtual object a load could name.
            field.value = Use(s, ops[0], here);
          } else if (stored >= 0 && IsWord(field.type)) {
            field.object = stored;
          } else {
            field.value = ops[0];
          }
          SetField(s.objects.at(base), field);
          RemoveInst(inst);
          return;
        }
        break;
      }
      case Opcode::kLoad: {
        int base = ObjectOf(ops[0]);
        const int32_t offset = static_cast<int32_t>(inst->imm());
        const Type type = inst->type_suffix();
        if (base >= 0 && IsVirtual(s, base) && Fits(s.objects.at(base), base, offset, type)) {
          const Field* field = s.objects.at(base).FieldAt(offset);
          if (field == nullptr) {
            ReplaceValue(inst->result(), Constant(type, 0));
          } else if (field->object >= 0 && IsWord(type)) {
            alias_[inst->result()] = field->object;
          } else if (field->object >= 0) {
            break;  // an address read as f64: escapes
          } else {
            ReplaceValue(inst->result(), Bitcast(field->value, type, here));
          }
          RemoveInst(inst);
          return;
        }
        break;
      }
      case Opcode::kIcmp: {
        int a = ObjectOf(ops[0]), b = ObjectOf(ops[1]);
        const bool decided = (inst->cond() == ir::Cond::kEq || inst->cond() == ir::Cond::kNe) &&
                             ((a >= 0 && IsVirtual(s, a)) || (b >= 0 && IsVirtual(s, b)) ||
                              (a >= 0 && a == b));
        if (decided) {
          const bool same = a == b;
          ReplaceValue(inst->result(),
                       Constant(Type::kI1, (inst->cond() == ir::Cond::kEq) == same ? 1 : 0));
          RemoveInst(inst);
          return;
        }
        break;
      }
      case Opcode::kGuard:
      case Opcode::kSafepoint:
      case Opcode::kDeopt:
        FixFrameState(s, inst, /*eager=*/true);
        break;
      case Opcode::kCallRuntime:
      case Opcode::kCallTarget:
        if (inst->frame_state() != nullptr) FixFrameState(s, inst, /*eager=*/false);
        break;
      default:
        break;
    }
    // Every other use of an object's address escapes.
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ObjectOf(ops[i]) >= 0) SetOperand(inst, static_cast<int>(i), Use(s, ops[i], here));
    }
  }

  // --------------------------------------------------------- merges
  // The state at the start of `b` from its processed predecessors' edges.
  // Objects in `force` (and, with `all`, every object) are materialized.
  State MergeEdges(Block* b, const std::vector<Edge>& edges, const std::set<int>& force,
                   bool all, const LoopRequests* requests, LoopSpec* spec) {
    std::vector<State> in;
    for (const Edge& e : edges) in.push_back(*end_state_[rpo_index_.at(e.from)]);
    auto end_of = [](const Edge& e) { return InsertPoint{nullptr, e}; };
    // Block parameters: one object on every edge becomes that object.
    for (size_t i = 0; i < b->params().size(); ++i) {
      Value* param = b->params()[i];
      alias_.erase(param);
      int same = -2;
      for (const Edge& e : edges) {
        int o = ObjectOf(e.terminator->targets()[e.target].args[i]);
        same = same == -2 || same == o ? o : -1;
      }
      const bool plain = requests != nullptr && requests->plain_params.contains(param);
      if (same >= 0 && !all && !plain) {
        alias_[param] = same;
        if (spec != nullptr) spec->param_objects[param] = same;
        effects_.push_back([this, param] { removed_params_.push_back(param); });
        continue;
      }
      for (size_t k = 0; k < edges.size(); ++k) {
        Value* arg = edges[k].terminator->targets()[edges[k].target].args[i];
        if (ObjectOf(arg) >= 0) SetArg(edges[k], static_cast<int>(i), Use(in[k], arg, end_of(edges[k])));
      }
    }
    // Objects present on every edge and still needed.
    const std::set<int> live = LiveObjects(b, in);
    std::set<int> common;
    for (const auto& [o, os] : in[0].objects) {
      if (!live.contains(o)) continue;
      bool everywhere = true;
      for (const State& s : in) everywhere &= s.objects.contains(o);
      if (everywhere) common.insert(o);
    }
    // Which of them must be materialized: materialized somewhere, forced,
    // or with fields that cannot merge; and objects whose address differs
    // between edges in a field that stays virtual.
    std::set<int> materialize;
    for (int o : common) {
      if (all || force.contains(o)) materialize.insert(o);
      for (const State& s : in) {
        if (!s.objects.at(o).is_virtual) materialize.insert(o);
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (int o : common) {
        if (materialize.contains(o)) continue;
        if (!FieldsMerge(in, o)) {
          materialize.insert(o);
          changed = true;
        }
      }
      // Materializing an object materializes the virtual objects it
      // references (on that edge): common ones must then be materialized
      // on every edge.
      for (size_t k = 0; k < in.size(); ++k) {
        std::vector<int> seeds(materialize.begin(), materialize.end());
        for (int o : common) {
          if (materialize.contains(o)) continue;
          for (const Field& f : in[k].objects.at(o).fields) {
            if (f.object >= 0 && !SameOnEveryEdge(in, o, f.offset)) seeds.push_back(f.object);
          }
        }
        for (int o : Reach(in[k], seeds)) {
          if (common.contains(o) && !materialize.contains(o)) {
            materialize.insert(o);
            changed = true;
          }
        }
      }
    }
    State out;
    for (int o : common) {
      if (materialize.contains(o)) {
        std::vector<Value*> values;
        for (size_t k = 0; k < in.size(); ++k) {
          values.push_back(Materialize(in[k], o, end_of(edges[k])));
        }
        const size_t phis_before = phis_.size();
        out.objects[o] = ObjectState{false, MergeValues(b, edges, values, Type::kPtr), {}};
        if (spec != nullptr && phis_.size() > phis_before) {
          spec->object_phis.push_back({o, static_cast<int>(phis_before)});
        }
      }
    }
    for (int o : common) {
      if (materialize.contains(o)) continue;
      ObjectState merged;
      std::set<int32_t> offsets;
      for (const State& s : in) {
        for (const Field& f : s.objects.at(o).fields) offsets.insert(f.offset);
      }
      for (int32_t offset : offsets) {
        if (SameOnEveryEdge(in, o, offset)) {
          merged.fields.push_back(*in[0].objects.at(o).FieldAt(offset));
          continue;
        }
        Type type = Type::kInvalid;
        const ir::AliasClass* alias = nullptr;
        for (const State& s : in) {
          if (const Field* f = s.objects.at(o).FieldAt(offset)) {
            type = f->type;
            alias = f->alias;
          }
        }
        std::vector<Value*> values;
        for (size_t k = 0; k < in.size(); ++k) {
          values.push_back(
              FieldValue(in[k], in[k].objects.at(o).FieldAt(offset), type, end_of(edges[k])));
        }
        Field field;
        field.offset = offset;
        field.type = type;
        field.alias = alias;
        field.value = MergeValues(b, edges, values, type);
        merged.fields.push_back(field);
      }
      out.objects[o] = std::move(merged);
    }
    return out;
  }

  // The virtual objects of `s` reachable from `seeds` through fields.
  static std::set<int> Reach(const State& s, const std::vector<int>& seeds) {
    std::set<int> reached;
    std::vector<int> work = seeds;
    while (!work.empty()) {
      int o = work.back();
      work.pop_back();
      auto it = s.objects.find(o);
      if (it == s.objects.end() || !it->second.is_virtual || !reached.insert(o).second) continue;
      for (const Field& f : it->second.fields) {
        if (f.object >= 0) work.push_back(f.object);
      }
    }
    return reached;
  }

  // Whether object `o` has the same field at `offset` on every edge (a
  // field absent everywhere counts as different: there is nothing to keep).
  static bool SameOnEveryEdge(const std::vector<State>& in, int o, int32_t offset) {
    const Field* first = in[0].objects.at(o).FieldAt(offset);
    if (first == nullptr) return false;
    for (const State& s : in) {
      const Field* f = s.objects.at(o).FieldAt(offset);
      if (f == nullptr || !f->SameContent(*first)) return false;
    }
    return true;
  }

  // A field's value as `type` at `at`: zero when absent, the (materialized)
  // address for an object.
  Value* FieldValue(State& s, const Field* f, Type type, InsertPoint at) {
    if (f == nullptr) return Constant(type, 0);
    if (f->object >= 0) return Bitcast(Materialize(s, f->object, at), type, at);
    return Bitcast(f->value, type, at);
  }

  // Whether object `o`'s fields merge as a virtual object over `in`: every
  // offset has one width, fields do not overlap, and a field that differs
  // between edges can be one block parameter (types agree, addresses are
  // words). Differing addresses are materialized by the caller.
  static bool FieldsMerge(const std::vector<State>& in, int o) {
    std::map<int32_t, int> width;
    for (const State& s : in) {
      for (const Field& f : s.objects.at(o).fields) {
        auto [it, fresh] = width.try_emplace(f.offset, ir::ByteWidth(f.type));
        if (!fresh && it->second != ir::ByteWidth(f.type)) return false;
      }
    }
    for (auto it = width.begin(); it != width.end(); ++it) {
      auto next = std::next(it);
      if (next != width.end() && it->first + it->second > next->first) return false;
    }
    for (const auto& [offset, w] : width) {
      if (SameOnEveryEdge(in, o, offset)) continue;
      Type type = Type::kInvalid;
      for (const State& s : in) {
        const Field* f = s.objects.at(o).FieldAt(offset);
        if (f == nullptr) continue;
        if (f->object >= 0 && !IsWord(f->type)) return false;
        if (type != Type::kInvalid && type != f->type && !(IsWord(type) && IsWord(f->type))) {
          return false;
        }
        type = f->type;
      }
    }
    return true;
  }

  // One value per edge merged: the value itself if they agree, else a new
  // parameter of `b`.
  Value* MergeValues(Block* b, const std::vector<Edge>& edges, const std::vector<Value*>& values,
                     Type type) {
    bool same = true;
    for (Value* v : values) same &= v == values[0];
    if (same) return values[0];
    int phi = NewPhi(b, type);
    for (size_t k = 0; k < edges.size(); ++k) AddPhiArg(phi, edges[k], values[k]);
    return phis_[phi].placeholder;
  }

  // ------------------------------------------------------------ loops
  // The speculated state at loop header `h` (entered by `entry`).
  State EnterLoop(Block* h, const Edge& entry) {
    LoopRequests& requests = requests_[h];
    LoopSpec spec;
    State s = MergeEdges(h, {entry}, requests.materialize, /*all=*/false, &requests, &spec);
    const InsertPoint at{nullptr, entry};
    // The entry edge's end state, for values a new field parameter needs.
    for (auto& [o, os] : s.objects) {
      if (!os.is_virtual) continue;
      for (Field& f : os.fields) {
        if (f.object >= 0) continue;
        int phi = NewPhi(h, f.type);
        AddPhiArg(phi, entry, f.value);
        f.value = phis_[phi].placeholder;
        spec.field_phis[{o, f.offset}] = phi;
      }
      for (const auto& [key, type] : requests.field_phis) {
        if (key.first != o || spec.field_phis.contains(key)) continue;
        const Field* existing = os.FieldAt(key.second);
        Value* initial;
        if (existing == nullptr) {
          if (!Fits(os, o, key.second, type)) continue;
          initial = Constant(type, 0);
        } else if (existing->object >= 0 && !IsVirtual(s, existing->object)) {
          initial = Bitcast(s.objects.at(existing->object).materialized, existing->type, at);
        } else {
          continue;  // still a virtual object's address: materialized next time
        }
        const Type phi_type = existing != nullptr ? existing->type : type;
        int phi = NewPhi(h, phi_type);
        AddPhiArg(phi, entry, initial);
        Field field;
        field.offset = key.second;
        field.type = phi_type;
        field.value = phis_[phi].placeholder;
        if (existing != nullptr) field.alias = existing->alias;
        SetField(os, field);
        spec.field_phis[key] = phi;
      }
    }
    // Slot-only parameters a back edge passes a virtual object to: the
    // object of the previous iteration, zero-filled on entry (or, existing,
    // the value the entry edge passes).
    for (const auto& [param, maybe] : requests.maybe_objects) {
      if (requests.no_maybe.contains(param) ||
          !(maybe.existing ? MayEnterExisting(param, entry) : MayEnterUnassigned(param, entry))) {
        continue;
      }
      Value* p = const_cast<Value*>(param);
      ObjectState os;
      for (const auto& [offset, want] : maybe.fields) {
        auto initial = [&, offset = offset, &want = want] {
          Value* value = Constant(want.type, want.entry_bits);
          if (offset == kExistingIfOffset) {
            value = Constant(Type::kI64, 1);
          } else if (offset == kExistingOffset) {
            value = Bitcast(entry.terminator->targets()[entry.target].args[param->index()],
                            Type::kI64, at);
          }
          return value;
        };
        os.fields.push_back(HeaderField(h, entry, maybe.object, offset, want, initial, spec));
      }
      for (const auto& [offset, nested] : maybe.nested) {
        ObjectState record;
        for (const auto& [nested_offset, want] : nested.fields) {
          record.fields.push_back(HeaderField(
              h, entry, nested.object, nested_offset, want,
              [&, &want = want] { return Constant(want.type, want.entry_bits); }, spec));
        }
        s.objects[nested.object] = std::move(record);
        Field field;
        field.offset = offset;
        field.type = nested.type;
        field.alias = nested.alias;
        field.object = nested.object;
        SetField(os, field);
      }
      s.objects[maybe.object] = std::move(os);
      alias_[p] = maybe.object;
      spec.maybe_params[p] = maybe.object;
      effects_.push_back([this, p] { removed_params_.push_back(p); });
    }
    spec.state = s;
    spec.entry = entry;
    specs_[h] = std::move(spec);
    return s;
  }

  // Field `offset` of header object `object` as a new parameter of `h`,
  // initial() on the entry edge (the back edges' arguments come later).
  template <typename Initial>
  Field HeaderField(Block* h, const Edge& entry, int object, int32_t offset,
                    const LoopRequests::MaybeField& want, Initial&& initial, LoopSpec& spec) {
    int phi = NewPhi(h, want.type);
    AddPhiArg(phi, entry, initial());
    spec.field_phis[{object, offset}] = phi;
    Field field;
    field.offset = offset;
    field.type = want.type;
    field.alias = want.alias;
    field.value = phis_[phi].placeholder;
    return field;
  }

  // What a header object asks of a field the back edge's record has.
  static LoopRequests::MaybeField MaybeFieldOf(const Field& f) {
    LoopRequests::MaybeField want{f.type, f.alias};
    const Instruction* def = f.value != nullptr ? f.value->instruction() : nullptr;
    if (def != nullptr && f.value->type() == f.type &&
        (def->opcode() == Opcode::kIconst || def->opcode() == Opcode::kPconst)) {
      want.entry_bits = def->imm();
    }
    return want;
  }

  // The fields of the virtual objects of `s` other than `except` that name
  // object `named`.
  static int NamesIn(const State& s, int named, int except) {
    int names = 0;
    for (const auto& [other, os] : s.objects) {
      if (other == except || !os.is_virtual) continue;
      for (const Field& f : os.fields) names += f.object == named;
    }
    return names;
  }

  // Whether virtual object `o`, passed to header parameter `i` by a back
  // edge with arguments `args`, can be carried into the next iteration as a
  // copy of its fields: it was allocated in the loop, no other argument or
  // virtual object names it, and the virtual objects it references are
  // carried with it: each named by one of its fields only, allocated in the
  // loop, referencing no virtual object (a copy of an object that is named
  // elsewhere would not be the same).
  bool Carryable(const State& s, int o, const std::vector<Value*>& args, size_t i,
                 const LoopSpec& spec) const {
    // An object that entered the loop is the same object in every
    // iteration: a copy would be another one.
    if (o < 0 || !IsVirtual(s, o) || spec.state.objects.contains(o)) return false;
    for (size_t j = 0; j < args.size(); ++j) {
      if (j != i && ObjectOf(args[j]) == o) return false;
    }
    if (NamesIn(s, o, /*except=*/o) > 0) return false;
    const std::vector<Field>& fields = s.objects.at(o).fields;
    for (const Field& f : fields) {
      if (f.object < 0 || !IsVirtual(s, f.object)) continue;
      const int record = f.object;
      if (record == o || spec.state.objects.contains(record)) return false;
      for (const Value* arg : args) {
        if (ObjectOf(arg) == record) return false;
      }
      // Named by one field of `o` and by nothing else.
      const auto names_record = [record](const Field& g) { return g.object == record; };
      if (std::count_if(fields.begin(), fields.end(), names_record) != 1 ||
          NamesIn(s, record, /*except=*/o) > 0) {
        return false;
      }
      for (const Field& g : s.objects.at(record).fields) {
        if (g.object >= 0 && IsVirtual(s, g.object)) return false;
      }
    }
    return true;
  }

  // Checks the back edge `e` (state `s` at its end) against its header's
  // speculation; adds the field parameters' arguments. Returns the header
  // to restart if the speculation does not hold.
  std::optional<RestartRequest> LeaveLoop(State s, const Edge& e) {
    Block* h = e.terminator->targets()[e.target].block;
    LoopSpec& spec = specs_.at(h);
    LoopRequests& requests = requests_[h];
    const InsertPoint at{nullptr, e};
    auto restart = [&] { return RestartRequest{h}; };
    const auto& args = e.terminator->targets()[e.target].args;
    std::vector<std::pair<int, Value*>> phi_args;
    std::set<int> carried;  // header objects of slot-only parameters
    for (size_t i = 0; i < h->params().size(); ++i) {
      Value* param = h->params()[i];
      if (auto m = spec.maybe_params.find(param); m != spec.maybe_params.end()) {
        // The header object takes the fields of the iteration's object.
        const int header_object = m->second;
        const int o = ObjectOf(args[i]);
        LoopRequests::MaybeObject& maybe = requests.maybe_objects.at(param);
        // The header object must be virtual here, or gone (dead in the loop);
        // Carryable rejects o == header_object (it is in the header state).
        const bool escaped = s.objects.contains(header_object) && !IsVirtual(s, header_object);
        if (escaped || !Carryable(s, o, args, i, spec) || sizes_[o] != sizes_[header_object]) {
          requests.no_maybe.insert(param);
          return restart();
        }
        bool grew = false;
        auto no_maybe = [&] {
          requests.no_maybe.insert(param);
          return restart();
        };
        for (const Field& f : s.objects.at(o).fields) {
          if (f.object >= 0 && IsVirtual(s, f.object)) {
            // A record of its own (Carryable): carried as a nested object.
            auto nested = maybe.nested.find(f.offset);
            if (nested == maybe.nested.end() || maybe.fields.contains(f.offset) ||
                sizes_[f.object] != sizes_[nested->second.object] ||
                nested->second.type != f.type) {
              return no_maybe();
            }
            for (const Field& g : s.objects.at(f.object).fields) {
              auto [it, fresh] = nested->second.fields.try_emplace(g.offset, MaybeFieldOf(g));
              grew |= fresh;
              if (ir::ByteWidth(it->second.type) != ir::ByteWidth(g.type)) return no_maybe();
            }
            continue;
          }
          if (maybe.nested.contains(f.offset)) return no_maybe();
          auto [it, fresh] = maybe.fields.try_emplace(f.offset, MaybeFieldOf(f));
          grew |= fresh;
          if (ir::ByteWidth(it->second.type) != ir::ByteWidth(f.type)) return no_maybe();
        }
        for (const auto& [offset, nested] : maybe.nested) {
          const Field* f = s.objects.at(o).FieldAt(offset);
          if (f == nullptr || f->object < 0 || !IsVirtual(s, f->object)) return no_maybe();
        }
        if (grew) return restart();
        for (const auto& [offset, want] : maybe.fields) {
          phi_args.push_back({spec.field_phis.at({header_object, offset}),
                              FieldValue(s, s.objects.at(o).FieldAt(offset), want.type, at)});
        }
        for (const auto& [offset, nested] : maybe.nested) {
          const int record = s.objects.at(o).FieldAt(offset)->object;
          for (const auto& [nested_offset, want] : nested.fields) {
            phi_args.push_back(
                {spec.field_phis.at({nested.object, nested_offset}),
                 FieldValue(s, s.objects.at(record).FieldAt(nested_offset), want.type, at)});
          }
          carried.insert(nested.object);
        }
        carried.insert(header_object);
        continue;
      }
      if (int o = ObjectOf(args[i]);
          o >= 0 && spec.entry && !requests.no_maybe.contains(param) &&
          !requests.maybe_objects.contains(param) &&
          (MayEnterUnassigned(param, *spec.entry) || MayEnterExisting(param, *spec.entry)) &&
          Carryable(s, o, args, i, spec)) {
        // Try again with the parameter naming the previous iteration's
        // object.
        LoopRequests::MaybeObject maybe;
        maybe.object = static_cast<int>(sizes_.size());
        sizes_.push_back(sizes_[o]);
        for (const Field& f : s.objects.at(o).fields) {
          if (f.object < 0 || !IsVirtual(s, f.object)) {
            maybe.fields[f.offset] = MaybeFieldOf(f);
            continue;
          }
          // A record of its own (Carryable).
          LoopRequests::MaybeObject::Nested nested;
          nested.object = static_cast<int>(sizes_.size());
          sizes_.push_back(sizes_[f.object]);
          nested.type = f.type;
          nested.alias = f.alias;
          for (const Field& g : s.objects.at(f.object).fields) {
            nested.fields[g.offset] = MaybeFieldOf(g);
          }
          maybe.nested[f.offset] = std::move(nested);
        }
        if (!MayEnterUnassigned(param, *spec.entry)) {
          maybe.existing = true;
          maybe.fields[kExistingIfOffset] = LoopRequests::MaybeField{Type::kI64};
          maybe.fields[kExistingOffset] = LoopRequests::MaybeField{Type::kI64};
        }
        requests.maybe_objects[param] = std::move(maybe);
        return restart();
      }
      if (auto it = spec.param_objects.find(param); it != spec.param_objects.end()) {
        if (ObjectOf(args[i]) != it->second) {
          requests.plain_params.insert(param);
          return restart();
        }
        continue;
      }
      if (ObjectOf(args[i]) >= 0) SetArg(e, static_cast<int>(i), Use(s, args[i], at));
    }
    for (const auto& [o, phi] : spec.object_phis) {
      auto found = s.objects.find(o);
      if (found == s.objects.end() || found->second.is_virtual) {
        Fail();
        return std::nullopt;
      }
      phi_args.push_back({phi, found->second.materialized});
    }
    for (const auto& [o, expected] : spec.state.objects) {
      if (carried.contains(o)) continue;
      auto found = s.objects.find(o);
      if (found == s.objects.end()) {
        Fail();
        return std::nullopt;
      }
      if (!expected.is_virtual) continue;
      if (!found->second.is_virtual) {
        requests.materialize.insert(o);
        return restart();
      }
      std::set<int32_t> offsets;
      for (const Field& f : expected.fields) offsets.insert(f.offset);
      for (const Field& f : found->second.fields) offsets.insert(f.offset);
      for (int32_t offset : offsets) {
        const Field* want = expected.FieldAt(offset);
        const Field* have = found->second.FieldAt(offset);
        auto phi = spec.field_phis.find({o, offset});
        if (phi != spec.field_phis.end()) {
          const Type type = phis_[phi->second].type;
          if (have != nullptr && (ir::ByteWidth(have->type) != ir::ByteWidth(type) ||
                                  (have->object >= 0 && !IsWord(type)))) {
            requests.materialize.insert(o);
            return restart();
          }
          phi_args.push_back({phi->second, FieldValue(s, have, type, at)});
          if (!found->second.is_virtual) {
            // The field's object reaches `o` (a cycle): materializing it
            // materialized `o` too, which cannot stay virtual here.
            requests.materialize.insert(o);
            return restart();
          }
          continue;
        }
        if (want != nullptr && have != nullptr && want->SameContent(*have)) continue;
        // A field the header does not have as a parameter changed.
        const Field* any = have != nullptr ? have : want;
        if (!IsWord(any->type) && any->object >= 0) {
          requests.materialize.insert(o);
          return restart();
        }
        if (requests.field_phis.contains({o, offset})) {
          // Asked for already and still not possible: give the object up.
          requests.materialize.insert(o);
          return restart();
        }
        requests.field_phis[{o, offset}] = any->type;
        if (want != nullptr && want->object >= 0) requests.materialize.insert(want->object);
        return restart();
      }
    }
    for (const auto& [phi, v] : phi_args) AddPhiArg(phi, e, v);
    return std::nullopt;
  }

  // ------------------------------------------------------------ blocks
  std::optional<RestartRequest> ProcessBlock(Block* b, size_t pos) {
    State s;
    if (b != f_.entry()) {
      std::vector<Edge> forward;
      for (const Edge& e : edges_in_[b]) {
        if (rpo_index_.at(e.from) < static_cast<int>(pos)) forward.push_back(e);
      }
      if (forward.empty()) {
        Fail();
        return std::nullopt;
      }
      if (headers_.contains(b)) {
        if (forward.size() == 1) {
          s = EnterLoop(b, forward[0]);
        } else {
          LoopSpec spec;
          s = MergeEdges(b, forward, {}, /*all=*/true, nullptr, &spec);
          spec.state = s;
          specs_[b] = std::move(spec);
        }
      } else {
        s = MergeEdges(b, forward, {}, /*all=*/false, nullptr, nullptr);
      }
    }
    for (Instruction* inst : b->instructions()) {
      ProcessInstruction(s, inst);
      if (failed_) return std::nullopt;
    }
    Instruction* term = b->terminator();
    for (size_t t = 0; t < term->targets().size(); ++t) {
      Block* target = term->targets()[t].block;
      if (rpo_index_.at(target) <= static_cast<int>(pos)) {
        std::optional<RestartRequest> r = LeaveLoop(s, Edge{b, term, static_cast<int>(t)});
        if (r || failed_) return r;
      }
    }
    end_state_[pos] = std::move(s);
    return std::nullopt;
  }

  // ------------------------------------------------------------ apply
  void Apply() {
    // Unreachable blocks may use the removed values; dce would drop them.
    f_.RemoveBlocksIf([this](Block* b) { return !rpo_index_.contains(b); });
    for (const auto& [term, target] : split_edges_) {
      Block* middle = f_.CreateBlock();
      Instruction* jump = f_.CreateInstruction(Opcode::kJump);
      jump->mutable_targets().push_back(std::move(term->mutable_targets()[target]));
      middle->Append(jump);
      term->mutable_targets()[target] = ir::BlockCall{middle, {}};
      split_jumps_[{term, target}] = jump;
    }
    for (auto& effect : effects_) effect();
    Block* entry = f_.entry();
    Instruction* first = entry->instructions().empty() ? nullptr : entry->instructions()[0];
    for (Instruction* c : constant_insts_) {
      if (first != nullptr) {
        entry->InsertBefore(first, c);
      } else {
        entry->Append(c);
      }
    }
    // Parameters that became objects go first (argument indices of the
    // edges refer to the original parameters until now).
    std::sort(removed_params_.begin(), removed_params_.end(),
              [](const Value* a, const Value* b) { return a->index() > b->index(); });
    for (Value* param : removed_params_) f_.RemoveBlockParam(param->param_block(), param->index());
    for (Phi& phi : phis_) {
      Value* param = f_.AddBlockParam(phi.block, phi.type);
      for (auto& [edge, v] : phi.args) {
        auto [term, target] = ResolveEdge(edge);
        term->mutable_targets()[target].args.push_back(v);
      }
      substitution_.Replace(phi.placeholder, param);
    }
    substitution_.ApplyTo(f_);
    for (Instruction* inst : to_remove_) inst->block()->Remove(inst);
  }

  Function& f_;
  PassContext& ctx_;
  std::vector<Block*> rpo_;
  absl::flat_hash_map<const Block*, int> rpo_index_;
  absl::flat_hash_map<const Block*, std::vector<Edge>> edges_in_;
  absl::flat_hash_map<const Block*, std::vector<uint64_t>> live_in_;
  absl::flat_hash_set<const Block*> headers_;
  absl::flat_hash_map<const Value*, const Value*> slot_only_;  // parameter -> its tag
  absl::flat_hash_set<const Value*> existing_ok_;
  std::vector<std::optional<State>> end_state_;
  absl::flat_hash_map<const Block*, std::pair<size_t, size_t>> marks_;
  absl::flat_hash_map<const Block*, LoopRequests> requests_;
  absl::flat_hash_map<const Block*, LoopSpec> specs_;

  std::vector<int64_t> sizes_;  // by object: the bytes of its `alloc`
  absl::flat_hash_map<const Instruction*, int> alloc_object_;
  absl::flat_hash_map<const Value*, int> alias_;
  bool virtualized_ = false;
  bool failed_ = false;

  std::vector<std::function<void()>> effects_;
  std::vector<Phi> phis_;
  std::map<std::pair<Type, int64_t>, Value*> constants_;
  std::vector<Instruction*> constant_insts_;
  std::vector<Instruction*> to_remove_;
  std::vector<Value*> removed_params_;
  std::set<std::pair<Instruction*, int>> split_edges_;
  absl::flat_hash_map<std::pair<Instruction*, int>, Instruction*> split_jumps_;
  Substitution substitution_;
};

}  // namespace

absl::StatusOr<bool> PartialEscapeAnalysis::Run(ir::Function& function, PassContext& ctx) {
  return Analysis(function, ctx).Run();
}

}  // namespace morel::opt
