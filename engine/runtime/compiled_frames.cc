#include "engine/runtime/compiled_frames.h"

#include <atomic>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "base/check.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/native_tier.h"
#include "nodes/call_target.h"
#include "nodes/root_node.h"

namespace morel::runtime {

namespace {

std::atomic<const codegen::RuntimeSupport*> host_runtime_support{nullptr};

const void* ReturnAddressOf(const codegen::FrameLayout& layout, const uint8_t* link) {
  const void* pc;
  std::memcpy(&pc, link + layout.return_address_offset, sizeof(pc));
  return pc;
}
const uint8_t* CallerLinkOf(const codegen::FrameLayout& layout, const uint8_t* link) {
  const uint8_t* caller;
  std::memcpy(&caller, link + layout.caller_link_offset, sizeof(caller));
  return caller;
}

}  // namespace

const codegen::RuntimeSupport* HostRuntimeSupport() {
  return host_runtime_support.load(std::memory_order_acquire);
}

void SetHostRuntimeSupport(const codegen::RuntimeSupport* support) {
  host_runtime_support.store(support, std::memory_order_release);
}

// Every guest call from compiled code pushes one of these, and few are ever
// walked: the captured registers are read where they are (the stub's frame,
// alive as long as the segment) when a walk needs them, not copied here.
NativeSegment::NativeSegment(const codegen::FrameLayout* layout, const uint64_t* captured)
    : layout_(layout),
      link_(layout == nullptr ? nullptr
                              : reinterpret_cast<const uint8_t*>(
                                    captured + layout->captured_registers.size())),
      captured_(captured),
      link_code_(nullptr) {}

NativeSegment::NativeSegment(const codegen::FrameLayout* layout, const uint8_t* link,
                             const uint64_t* registers, const NativeCode* link_code)
    : layout_(layout), link_(link), registers_(registers), link_code_(link_code) {}

bool NativeSegment::ForEachFrame(const FrameVisitor& visit) const {
  if (layout_ == nullptr) return true;
  const codegen::FrameLayout& layout = *layout_;
  MOREL_CHECK(layout.register_count <= kMaxCompiledRegisters);
  uint64_t registers[kMaxCompiledRegisters];
  std::memset(registers, 0, sizeof(registers));
  if (captured_ != nullptr) {
    for (size_t i = 0; i < layout.captured_registers.size(); ++i) {
      registers[layout.captured_registers[i]] = captured_[i];
    }
  } else if (registers_ != nullptr) {
    std::memcpy(registers, registers_, sizeof(uint64_t) * layout.register_count);
  }
  const uint8_t* link = link_;
  const NativeCode* link_code = link_code_;
  while (link != nullptr) {
    // The frame at `link` returns to its caller: restore the callee-saved
    // registers its prologue saved (the caller's values during the call).
    if (link_code != nullptr) {
      const std::vector<int>& saved = link_code->compiled().code.metadata.saved_registers;
      for (size_t k = 0; k < saved.size(); ++k) {
        MOREL_CHECK(saved[k] >= 0 && saved[k] < layout.register_count);
        std::memcpy(&registers[saved[k]],
                    link + layout.saved_registers_offset - 8 * static_cast<ptrdiff_t>(k),
                    sizeof(uint64_t));
      }
    }
    const void* pc = ReturnAddressOf(layout, link);
    const uint8_t* frame_pointer = CallerLinkOf(layout, link);
    const NativeCode* code = NativeCode::Find(pc);
    if (code == nullptr) {
      // One C++ frame between compiled frames is Dispatch's (when it does
      // not tail-jump); its caller may be compiled. Two end the segment.
      if (frame_pointer == nullptr || frame_pointer <= link) break;
      pc = ReturnAddressOf(layout, frame_pointer);
      link = frame_pointer;
      frame_pointer = CallerLinkOf(layout, link);
      code = NativeCode::Find(pc);
      if (code == nullptr) break;
    }
    if (frame_pointer == nullptr || frame_pointer <= link) break;  // not a caller's frame
    // `code` runs at `frame_pointer`, suspended in the call returning to pc.
    const codegen::CompiledFunction& compiled = code->compiled();
    const uintptr_t offset = reinterpret_cast<uintptr_t>(pc) -
                             reinterpret_cast<uintptr_t>(compiled.code.region.start);
    int32_t deopt_id = -1;
    for (const codegen::CallSite& site : compiled.code.metadata.call_sites) {
      if (site.return_offset == offset) deopt_id = site.deopt_id;
    }
    // Calls without a lazy state: OSR code's (it keeps the interpreter's
    // frame current, which the walk lists) and calls that run no guest code.
    if (deopt_id >= 0) {
      absl::StatusOr<codegen::DecodedDeopt> decoded =
          compiled.DecodeDeopt(static_cast<uint64_t>(deopt_id), registers, frame_pointer);
      MOREL_CHECK_MSG(decoded.ok(),
                      absl::StrFormat("cannot decode the frame of compiled code at %p: %s", pc,
                                      decoded.status().message()));
      if (!VisitDeoptFrames(decoded->frames, visit)) return false;
    }
    link = frame_pointer;
    link_code = code;
  }
  return true;
}

static_assert(pe::kGuestCallMaxWords == 5, "codegen::GuestCallTarget passes five words");

codegen::ValuePair GuestCallFromCompiled(const void* invoker, int64_t w0, int64_t w1, int64_t w2,
                                         int64_t w3, int64_t w4, const uint64_t* captured) {
  std::optional<NativeSegment> segment;
  if (captured != nullptr) {
    const codegen::RuntimeSupport* support = HostRuntimeSupport();
    segment.emplace(support != nullptr ? &support->frame : nullptr, captured);
  }
  // On the native stack, which the collector scans.
  const int64_t words[pe::kGuestCallMaxWords] = {w0, w1, w2, w3, w4};
  int64_t results[2] = {0, 0};
  reinterpret_cast<pe::RuntimeInvoker>(const_cast<void*>(invoker))(
      absl::Span<const int64_t>(words, pe::kGuestCallMaxWords), results);
  return codegen::ValuePair{static_cast<uint64_t>(results[0]), static_cast<uint64_t>(results[1])};
}

namespace {
codegen::ValuePair GuestCallWithoutCapture(const void* invoker, int64_t w0, int64_t w1,
                                           int64_t w2, int64_t w3, int64_t w4) {
  return GuestCallFromCompiled(invoker, w0, w1, w2, w3, w4, nullptr);
}
}  // namespace

const void* GuestCallEntryWithoutCapture() {
  return reinterpret_cast<const void*>(&GuestCallWithoutCapture);
}

bool VisitDeoptFrames(absl::Span<const ir::DeoptFrame> frames, const FrameVisitor& visit) {
  for (const ir::DeoptFrame& frame : frames) {
    CallTarget* target = Engine::FindCallTargetInProcess(frame.call_target_id);
    RootNode* root = target->root_node();
    const FrameDescriptor& descriptor = root->frame_descriptor();
    // The values are still held by the compiled activation (its machine
    // frame, or the IR tier's traced value table), which the collector
    // scans, so a plain vector may hold them during the visit.
    std::vector<Value> slots(static_cast<size_t>(descriptor.size()), Value::Illegal());
    for (size_t i = 0; i < frame.locals.size() && i < slots.size(); ++i) {
      slots[i] = ValueOfSlot(frame.locals[i]);
    }
    FrameInstance instance{root, &descriptor, absl::Span<const Value>(slots), nullptr};
    if (!visit(instance)) return false;
  }
  return true;
}

bool InterpretedIrSegment::ForEachFrame(const FrameVisitor& visit) const {
  return frames_ == nullptr || VisitDeoptFrames(*frames_, visit);
}

}  // namespace morel::runtime
