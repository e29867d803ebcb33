#include "engine/codegen/deopt_map.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace morel::codegen {

absl::string_view CauseName(DeoptEntry::Cause cause) {
  switch (cause) {
    case DeoptEntry::Cause::kGuard: return "guard";
    case DeoptEntry::Cause::kOverflow: return "overflow";
    case DeoptEntry::Cause::kDeopt: return "deopt";
    case DeoptEntry::Cause::kCall: return "call";
    case DeoptEntry::Cause::kUnreachable: return "unreachable";
    case DeoptEntry::Cause::kSafepoint: return "safepoint";
  }
  return "?";
}

const DeoptEntry* DeoptMap::Find(uint32_t id) const {
  if (id >= entries_.size()) return nullptr;
  return &entries_[id];
}

absl::Status DeoptMap::Resolve(const CodeMetadata& metadata) {
  for (DeoptEntry& e : entries_) {
    const DeoptPoint* p = metadata.FindDeopt(e.id);
    if (p == nullptr) {
      return absl::InternalError(absl::StrCat("deopt #", e.id, " (", CauseName(e.cause),
                                              ") has no point in the code metadata"));
    }
    if (p->values.size() != e.num_values) {
      return absl::InternalError(absl::StrCat("deopt #", e.id, ": metadata has ",
                                              p->values.size(), " values, expected ",
                                              e.num_values));
    }
    e.locations = p->values;
  }
  resolved_ = true;
  return absl::OkStatus();
}

absl::StatusOr<DecodedDeopt> DeoptMap::Decode(uint64_t id, const uint64_t* saved_regs,
                                              const uint8_t* frame_pointer) const {
  if (!resolved_) return absl::FailedPreconditionError("deopt map not resolved");
  const DeoptEntry* e = id <= UINT32_MAX ? Find(static_cast<uint32_t>(id)) : nullptr;
  if (e == nullptr) return absl::NotFoundError(absl::StrCat("unknown deopt id ", id));
  if (e->cause == DeoptEntry::Cause::kUnreachable) {
    return absl::FailedPreconditionError(
        absl::StrCat("deopt #", id, ": compiled code reached 'unreachable'"));
  }
  DecodedDeopt out;
  out.id = e->id;
  out.cause = e->cause;
  out.kind = e->kind;
  out.reason = e->reason;
  out.action = e->action;
  auto read = [&](int32_t index) {
    return static_cast<int64_t>(ReadDeoptValue(e->locations[index], saved_regs, frame_pointer));
  };
  auto slot = [&](const DeoptSlotDesc& d) {
    if (!d.legal) return ir::DeoptFrame::Slot{};
    if (d.object >= 0) return ir::DeoptFrame::Slot{true, 0, read(d.tag), d.object};
    return ir::DeoptFrame::Slot{true, read(d.payload), read(d.tag)};
  };
  for (const DeoptFrameDesc& f : e->frames) {
    ir::DeoptFrame frame;
    frame.call_target_id = f.call_target_id;
    frame.resume_point = f.resume_point;
    for (const DeoptSlotDesc& d : f.locals) frame.locals.push_back(slot(d));
    for (const DeoptSlotDesc& d : f.stack) frame.stack.push_back(slot(d));
    out.frames.push_back(std::move(frame));
  }
  for (const DeoptObjectDesc& o : e->objects) {
    ir::DeoptObject object;
    object.size = o.size;
    for (const DeoptObjectDesc::Field& f : o.fields) {
      object.fields.push_back({f.offset, f.type, f.object >= 0 ? 0 : read(f.value), f.object});
    }
    if (o.existing_if >= 0) {
      object.is_existing = read(o.existing_if) != 0;
      object.existing = object.is_existing ? read(o.existing) : 0;
    }
    out.objects.push_back(std::move(object));
  }
  return out;
}

namespace {

std::string LocationText(const ValueLocation& loc) {
  switch (loc.kind) {
    case ValueLocation::Kind::kRegister: return absl::StrCat("r", loc.value);
    case ValueLocation::Kind::kFrameSlot: return absl::StrCat("[fp", loc.value, "]");
    case ValueLocation::Kind::kConstant: return absl::StrCat("$", loc.value);
  }
  return "?";
}

}  // namespace

std::string DeoptMap::DebugString() const {
  std::string out;
  for (const DeoptEntry& e : entries_) {
    auto value = [&](int32_t i) {
      std::string s = absl::StrCat(i);
      if (resolved_ && i >= 0 && i < static_cast<int32_t>(e.locations.size())) {
        absl::StrAppend(&s, "@", LocationText(e.locations[i]));
      }
      return s;
    };
    auto slots = [&](const std::vector<DeoptSlotDesc>& v) {
      return absl::StrJoin(v, ", ", [&](std::string* o, const DeoptSlotDesc& d) {
        if (!d.legal) {
          absl::StrAppend(o, "illegal");
        } else {
          absl::StrAppend(o, d.object >= 0 ? absl::StrCat("o", d.object) : value(d.payload), ":",
                          value(d.tag));
        }
      });
    };
    absl::StrAppend(&out, "#", e.id, " ", CauseName(e.cause), " ",
                    e.kind == ir::DeoptKind::kEager ? "eager" : "lazy", " \"", e.reason, "\"",
                    e.action == ir::DeoptAction::kKeepCode ? " keep_code" : "", ":");
    for (const DeoptFrameDesc& f : e.frames) {
      absl::StrAppend(&out, " [target ", f.call_target_id, " resume ", f.resume_point,
                      " locals (", slots(f.locals), ") stack (", slots(f.stack), ")]");
    }
    for (size_t i = 0; i < e.objects.size(); ++i) {
      absl::StrAppend(
          &out, " o", i, " = object ", e.objects[i].size, " [",
          absl::StrJoin(e.objects[i].fields, ", ",
                        [&](std::string* o, const DeoptObjectDesc::Field& f) {
                          absl::StrAppend(o, f.offset, ": ", ir::TypeName(f.type), " ",
                                          f.object >= 0 ? absl::StrCat("o", f.object)
                                                        : value(f.value));
                        }),
          "]",
          e.objects[i].existing_if >= 0 ? absl::StrCat(" existing ", value(e.objects[i].existing),
                                                       " if ", value(e.objects[i].existing_if))
                                        : "");
    }
    out += "\n";
  }
  return out;
}

}  // namespace morel::codegen
