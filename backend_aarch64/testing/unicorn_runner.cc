#include "backend_aarch64/testing/unicorn_runner.h"

#include <sys/mman.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"

namespace morel::aarch64::testing {
namespace {

using codegen::CodeRegion;
using codegen::ValuePair;

// What a host function called from emulated code is called as: x0..x7 in,
// x0:x1 out (ValuePair is returned in rax:rdx on x86_64). Functions with
// fewer parameters or one result are called the same way: the C calling
// conventions of the hosts we run on let a caller pass more integer
// arguments than the callee reads, and ignore a second result register.
using HostFunction = ValuePair (*)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                   int64_t);

constexpr uint32_t kRet = 0xd65f03c0;  // ret (to x30)
// What x2-x18 hold after a host call (| the register number).
constexpr uint64_t kClobbered = 0xdead'c0de'0000'0000;

// Host memory other than installed code is mapped into an emulator in
// aligned windows of this size (clipped to the host mapping), so a loop
// over an array or a growing heap does not fault once per page.
constexpr uintptr_t kWindow = uintptr_t{1} << 20;
// Below each emulated stack: never mapped in the emulator, so running off
// the stack is an error naming the address instead of a write into
// whatever host memory lies below.
constexpr size_t kStackGuard = size_t{64} << 10;
// Code regions an emulator keeps mapped at most (EvictCode).
constexpr size_t kMaxCodeRegions = 64;

// QEMU's AArch64 exception numbers (target/arm/cpu.h) as the interrupt hook
// reports them.
constexpr uint32_t kExcpUdef = 1;
constexpr uint32_t kExcpSwi = 2;
constexpr uint32_t kExcpPrefetchAbort = 3;
constexpr uint32_t kExcpDataAbort = 4;
constexpr uint32_t kExcpBkpt = 7;
constexpr uint32_t kExcpHvc = 11;
constexpr uint32_t kExcpSmc = 13;
constexpr uint32_t kExcpUnaligned = 22;

// The thread pointer emulated code sees (ThreadPointer()). Only its address
// is used: a thread_local of this library, so it lies in the static TLS
// block at the same distance from every other static thread_local on every
// thread.
alignas(16) thread_local char thread_pointer_anchor;

size_t HostPageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// A page of address space reserved (PROT_NONE) for the life of the
// process: every emulator maps a page of its own there and uses it as the
// return address of each Call, so no host memory can ever alias it. It lies
// in the middle of 2 MiB reserved: when an emulator region ends right at
// the address uc_emu_start stops at, each Call costs ~4.5 us instead of
// ~0.4 us (measured with Unicorn 2.0.1; mmap would place the first code
// region there). 0 if the reservation failed.
constexpr size_t kSentinelIsolation = size_t{1} << 20;

// x19-x28, which every Call fills with canaries and checks on return.
constexpr int kCalleeSaved = 10;
constexpr int kCalleeSavedRegs[kCalleeSaved] = {
    UC_ARM64_REG_X19, UC_ARM64_REG_X20, UC_ARM64_REG_X21, UC_ARM64_REG_X22, UC_ARM64_REG_X23,
    UC_ARM64_REG_X24, UC_ARM64_REG_X25, UC_ARM64_REG_X26, UC_ARM64_REG_X27, UC_ARM64_REG_X28};
uint64_t CalleeSavedCanary(int i) { return 0xc0ffee0000000000ull | (uint64_t{19} + i) << 8; }
uintptr_t SentinelAddress() {
  static const uintptr_t sentinel = [] {
    void* p = mmap(nullptr, 2 * kSentinelIsolation, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? uintptr_t{0} : reinterpret_cast<uintptr_t>(p) + kSentinelIsolation;
  }();
  return sentinel;
}

std::string Hex(uint64_t v) { return absl::StrCat("0x", absl::Hex(v)); }

struct HostMapping {
  uintptr_t start = 0;
  uintptr_t end = 0;
  std::string perms;  // as /proc/self/maps prints them, e.g. "rw-p"
  bool readable() const { return perms.size() > 0 && perms[0] == 'r'; }
  bool writable() const { return perms.size() > 1 && perms[1] == 'w'; }
  bool executable() const { return perms.size() > 2 && perms[2] == 'x'; }
};

// The host mapping containing `address`, from /proc/self/maps (the only
// place protections can be read from). Called when the emulator first
// touches a window, so its cost (~50-100 us) is paid rarely.
std::optional<HostMapping> FindHostMapping(uintptr_t address) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    unsigned long lo = 0, hi = 0;
    char perms[8] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %7s", &lo, &hi, perms) != 3) continue;
    if (address < lo) break;  // sorted by address
    if (address < hi) return HostMapping{lo, hi, perms};
  }
  return std::nullopt;
}

absl::Status UcError(absl::string_view what, uc_err err) {
  return absl::InternalError(absl::StrCat("aarch64 emulation: ", what, ": ", uc_strerror(err)));
}

const char* AccessName(uc_mem_type type) {
  switch (type) {
    case UC_MEM_READ_UNMAPPED:
    case UC_MEM_READ_PROT:
      return "read of";
    case UC_MEM_WRITE_UNMAPPED:
    case UC_MEM_WRITE_PROT:
      return "write to";
    default:
      return "instruction fetch from";
  }
}

}  // namespace

// ------------------------------------------------------------------ Emulator

// One Unicorn instance with its own stack, used by one thread at one
// nesting depth. Everything here runs on that thread (hooks included).
class UnicornRunner::Emulator {
 public:
  static absl::StatusOr<std::unique_ptr<Emulator>> Create(UnicornRunner& runner) {
    std::unique_ptr<Emulator> e(new Emulator(runner));
    absl::Status s = e->Init();
    if (!s.ok()) return s;
    return e;
  }

  ~Emulator() {
    if (uc_ != nullptr) uc_close(uc_);
    if (stack_mapping_ != nullptr) munmap(stack_mapping_, stack_mapping_size_);
  }

  absl::StatusOr<ValuePair> Run(uintptr_t entry, absl::Span<const int64_t> args) {
    absl::Status s = SyncHostCalls();
    if (!s.ok()) return s;
    SyncCode(runner_.options_.invalidate_every_call);

    uint64_t x[8] = {};
    for (size_t i = 0; i < args.size(); ++i) x[i] = static_cast<uint64_t>(args[i]);
    // x29 = 0 ends the frame-pointer chain (as at a thread's start).
    uint64_t fp = 0, lr = SentinelAddress(), sp = stack_hi_;
    int regs[] = {UC_ARM64_REG_X0,  UC_ARM64_REG_X1,  UC_ARM64_REG_X2, UC_ARM64_REG_X3,
                  UC_ARM64_REG_X4,  UC_ARM64_REG_X5,  UC_ARM64_REG_X6, UC_ARM64_REG_X7,
                  UC_ARM64_REG_X29, UC_ARM64_REG_X30, UC_ARM64_REG_SP};
    void* vals[] = {&x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7], &fp, &lr, &sp};
    uc_err err = uc_reg_write_batch(uc_, regs, vals, 11);
    if (err != UC_ERR_OK) return UcError("setting the argument registers", err);
    // The callee-saved registers hold values of this activation's own
    // (AAPCS64: x19-x28 survive a call), checked after the return below,
    // so code that forgets to restore one fails here as it would break its
    // C++ caller natively.
    uint64_t callee_saved[kCalleeSaved];
    void* callee_saved_vals[kCalleeSaved];
    for (int i = 0; i < kCalleeSaved; ++i) {
      callee_saved[i] = CalleeSavedCanary(i);
      callee_saved_vals[i] = &callee_saved[i];
    }
    err = uc_reg_write_batch(uc_, const_cast<int*>(kCalleeSavedRegs), callee_saved_vals,
                             kCalleeSaved);
    if (err != UC_ERR_OK) return UcError("setting x19-x28", err);
    // TPIDR_EL0 (op0=3 op1=3 CRn=13 CRm=0 op2=2). Every Call: the code may
    // have written it.
    uc_arm64_cp_reg tpidr = {13, 0, 3, 3, 2, runner_.ThreadPointer()};
    err = uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &tpidr);
    if (err != UC_ERR_OK) return UcError("setting TPIDR_EL0", err);

    blocks_ = 0;
    deadline_ = absl::Now() + runner_.options_.timeout;
    error_ = absl::OkStatus();
    uint64_t start = entry;
    uint64_t last_restart = 0;  // none yet (0 is never code)
    for (;;) {
      EvictCode(start);
      restart_ = false;
      err = uc_emu_start(uc_, start, SentinelAddress(), 0, 0);
      if (!error_.ok()) return std::exchange(error_, absl::OkStatus());
      if (!restart_) break;
      // Code was mapped for the fetch that stopped the emulator: go on from
      // there (registers are as the fetch left them). Once per region.
      const uint64_t pc = Pc();
      if (pc == last_restart) {
        return absl::InternalError(absl::StrCat("aarch64 emulation: code at ", Hex(pc),
                                                " still not executable after mapping"));
      }
      last_restart = start = pc;
    }
    const uint64_t pc = Pc();
    if (err != UC_ERR_OK) {
      return absl::InternalError(
          absl::StrCat("aarch64 emulation: ", uc_strerror(err), " at pc ", Hex(pc)));
    }
    if (pc != SentinelAddress()) {
      return absl::InternalError(
          absl::StrCat("aarch64 emulation stopped at pc ", Hex(pc), " before returning"));
    }
    uint64_t x0 = 0, x1 = 0, x29 = 0, sp_after = 0;
    int result_regs[] = {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X29, UC_ARM64_REG_SP};
    void* result_vals[] = {&x0, &x1, &x29, &sp_after};
    err = uc_reg_read_batch(uc_, result_regs, result_vals, 4);
    if (err != UC_ERR_OK) return UcError("reading x0:x1", err);
    err = uc_reg_read_batch(uc_, const_cast<int*>(kCalleeSavedRegs), callee_saved_vals,
                            kCalleeSaved);
    if (err != UC_ERR_OK) return UcError("reading x19-x28", err);
    for (int i = 0; i < kCalleeSaved; ++i) {
      if (callee_saved[i] != CalleeSavedCanary(i)) {
        return absl::InternalError(absl::StrCat(
            "aarch64 emulation: the code returned with x", 19 + i, " = ", Hex(callee_saved[i]),
            ", not the caller's ", Hex(CalleeSavedCanary(i)), " (callee-saved)"));
      }
    }
    if (x29 != fp || sp_after != sp) {
      return absl::InternalError(absl::StrCat("aarch64 emulation: the code returned with x29 = ",
                                              Hex(x29), ", sp = ", Hex(sp_after),
                                              ", not the caller's ", Hex(fp), ", ", Hex(sp)));
    }
    return ValuePair{x0, x1};
  }

 private:
  explicit Emulator(UnicornRunner& runner) : runner_(runner), page_(HostPageSize()) {}

  absl::Status Init() {
    uc_err err = uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc_);
    if (err != UC_ERR_OK) {
      uc_ = nullptr;
      return UcError("uc_open", err);
    }
    // Before anything creates the CPU: the default model lacks LSE atomics
    // (and other v8.1+ instructions) compiled code may use.
    err = uc_ctl_set_cpu_model(uc_, UC_CPU_ARM64_MAX);
    if (err != UC_ERR_OK) return UcError("selecting the cpu model", err);
    // Host pages are mapped whole: they must be whole emulator pages
    // (Unicorn's AArch64 page is 1 KiB, and 2.0.1 changes it only for
    // 32-bit ARM).
    uint32_t uc_page = 0;
    err = uc_ctl_get_page_size(uc_, &uc_page);
    if (err != UC_ERR_OK) return UcError("reading the page size", err);
    if (uc_page == 0 || page_ % uc_page != 0) {
      return absl::FailedPreconditionError(absl::StrCat("aarch64 emulation: emulator page size ",
                                                        uc_page, " does not divide the host's ",
                                                        page_));
    }
    err = uc_mem_map(uc_, SentinelAddress(), page_, UC_PROT_READ | UC_PROT_EXEC);
    if (err != UC_ERR_OK) return UcError("mapping the return sentinel", err);

    // The stack is host memory (mapped at its own address): C++ called from
    // the emulated code reads frames through pointers into it.
    stack_mapping_size_ = kStackGuard + runner_.options_.stack_bytes;
    void* mem = mmap(nullptr, stack_mapping_size_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) {
      return absl::ResourceExhaustedError(
          absl::StrCat("aarch64 emulation: mmap of the stack: ", std::strerror(errno)));
    }
    stack_mapping_ = static_cast<uint8_t*>(mem);
    if (mprotect(stack_mapping_, kStackGuard, PROT_NONE) != 0) {
      return absl::InternalError(
          absl::StrCat("aarch64 emulation: mprotect of the stack guard: ", std::strerror(errno)));
    }
    stack_lo_ = reinterpret_cast<uintptr_t>(stack_mapping_) + kStackGuard;
    stack_hi_ = stack_lo_ + runner_.options_.stack_bytes;
    err = uc_mem_map_ptr(uc_, stack_lo_, runner_.options_.stack_bytes, UC_PROT_READ | UC_PROT_WRITE,
                         reinterpret_cast<void*>(stack_lo_));
    if (err != UC_ERR_OK) return UcError("mapping the stack", err);

    // Hooks over all addresses (begin 1 > end 0). Added before the first
    // translation: Unicorn instruments blocks when it translates them.
    uc_hook hook;
    err = uc_hook_add(uc_, &hook, UC_HOOK_BLOCK, reinterpret_cast<void*>(&OnBlock), this, 1, 0);
    if (err != UC_ERR_OK) return UcError("adding the block hook", err);
    err = uc_hook_add(uc_, &hook, UC_HOOK_MEM_UNMAPPED, reinterpret_cast<void*>(&OnUnmapped), this,
                      1, 0);
    if (err != UC_ERR_OK) return UcError("adding the unmapped-memory hook", err);
    err = uc_hook_add(uc_, &hook, UC_HOOK_MEM_PROT, reinterpret_cast<void*>(&OnProtected), this, 1,
                      0);
    if (err != UC_ERR_OK) return UcError("adding the protection hook", err);
    err = uc_hook_add(uc_, &hook, UC_HOOK_INTR, reinterpret_cast<void*>(&OnInterrupt), this, 1, 0);
    if (err != UC_ERR_OK) return UcError("adding the exception hook", err);
    return absl::OkStatus();
  }

  uint64_t Pc() const {
    uint64_t pc = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PC, &pc);
    return pc;
  }

  // Records the first error of this activation and stops it.
  void Fail(absl::Status status) {
    if (error_.ok()) error_ = std::move(status);
    uc_emu_stop(uc_);
  }

  // Gives each newly allowed host function an emulator-only page at its
  // host address (the host's own code there is never read): filled with
  // `ret`, with a code hook that calls the function before the `ret` runs.
  absl::Status SyncHostCalls() {
    if (runner_.allowed_version_.load(std::memory_order_acquire) == allowed_version_) {
      return absl::OkStatus();
    }
    std::vector<uintptr_t> fresh;
    uint64_t version = 0;
    {
      std::lock_guard<std::mutex> lock(runner_.mu_);
      version = runner_.allowed_version_.load(std::memory_order_relaxed);
      for (uintptr_t fn : runner_.allowed_) {
        if (allowed_.count(fn) == 0) fresh.push_back(fn);
      }
    }
    for (uintptr_t fn : fresh) {
      // The `ret` at fn may reach into the next page (x86 functions need
      // not be 4-byte aligned; the emulator fetches from any address).
      for (uintptr_t page = fn & ~(uintptr_t{page_} - 1); page < fn + sizeof(kRet); page += page_) {
        if (host_call_pages_.count(page) > 0) continue;
        UnmapRange(page, page + page_);  // host code read as data before
        uc_err err = uc_mem_map(uc_, page, page_, UC_PROT_READ | UC_PROT_EXEC);
        if (err != UC_ERR_OK) return UcError(absl::StrCat("mapping host function ", Hex(fn)), err);
        const std::vector<uint32_t> rets(page_ / 4, kRet);
        err = uc_mem_write(uc_, page, rets.data(), page_);
        if (err != UC_ERR_OK) return UcError("filling a host-call page", err);
        uc_hook hook;
        err = uc_hook_add(uc_, &hook, UC_HOOK_CODE, reinterpret_cast<void*>(&OnHostCall), this,
                          page, page + page_ - 1);
        if (err != UC_ERR_OK) return UcError("adding a host-call hook", err);
        host_call_pages_.insert(page);
      }
      const uc_err err = uc_mem_write(uc_, fn, &kRet, sizeof(kRet));
      if (err != UC_ERR_OK) return UcError("writing a host function's ret", err);
      allowed_.insert(fn);
    }
    allowed_version_ = version;
    return absl::OkStatus();
  }

  // Discards the translations of installed code when the cache changed
  // since they were made (or `force`), and unmaps regions that are no longer
  // live, so a stale jump faults as it would natively.
  void SyncCode(bool force) {
    const uint64_t generation = runner_.cache_.generation();
    if (generation == code_generation_ && !force) return;
    code_generation_ = generation;
    if (code_.empty()) return;
    runner_.stats_.invalidations.fetch_add(1, std::memory_order_relaxed);
    for (auto it = code_.begin(); it != code_.end();) {
      const uintptr_t start = it->first;
      const size_t size = it->second.size;
      absl::StatusOr<CodeRegion> live = runner_.cache_.Lookup(reinterpret_cast<const void*>(start));
      if (live.ok() && reinterpret_cast<uintptr_t>(live->start) == start &&
          live->mapped_size == size) {
        uc_ctl_remove_cache(uc_, start, start + size);
        ++it;
      } else {
        DropCode(start, size);
        it = code_.erase(it);
      }
    }
  }

  // Unmaps a code region with its translations (unmapping alone keeps
  // them: they would run again if other code were mapped there later).
  void DropCode(uintptr_t start, size_t size) {
    uc_ctl_remove_cache(uc_, start, start + size);
    uc_mem_unmap(uc_, start, size);
  }

  // Keeps at most kMaxCodeRegions code regions mapped, dropping the ones
  // mapped first (but not the one containing `pc`, about to run): each
  // Unicorn region makes every later map and unmap slower (measured: the
  // 1000th map of a page costs 7.5 ms, the 100th 57 us), and the lowering
  // tests install thousands of functions per emulator, most run only for a
  // while. An evicted region in use is mapped again by its next fetch.
  // Outside uc_emu_start only: nothing of it is executing.
  void EvictCode(uint64_t pc) {
    while (code_.size() > kMaxCodeRegions) {
      auto oldest = code_.end();
      for (auto it = code_.begin(); it != code_.end(); ++it) {
        if (pc >= it->first && pc < it->first + it->second.size) continue;
        if (oldest == code_.end() || it->second.serial < oldest->second.serial) oldest = it;
      }
      if (oldest == code_.end()) return;
      DropCode(oldest->first, oldest->second.size);
      code_.erase(oldest);
      runner_.stats_.code_evictions.fetch_add(1, std::memory_order_relaxed);
    }
  }

  // Unmaps whatever the emulator maps in [lo, hi) (stale code regions,
  // windows of host memory whose use changed), dropping translations first.
  void UnmapRange(uintptr_t lo, uintptr_t hi) {
    for (auto it = code_.begin(); it != code_.end();) {
      if (it->first < hi && it->first + it->second.size > lo) {
        DropCode(it->first, it->second.size);
        it = code_.erase(it);
      } else {
        ++it;
      }
    }
    uc_mem_region* regions = nullptr;
    uint32_t count = 0;
    if (uc_mem_regions(uc_, &regions, &count) != UC_ERR_OK) return;
    std::vector<std::pair<uintptr_t, uintptr_t>> overlaps;
    for (uint32_t i = 0; i < count; ++i) {
      const uintptr_t b = std::max<uintptr_t>(regions[i].begin, lo);
      const uintptr_t e = std::min<uintptr_t>(regions[i].end + 1, hi);  // end is inclusive
      if (b < e) overlaps.emplace_back(b, e);
    }
    uc_free(regions);
    for (const auto& [b, e] : overlaps) uc_mem_unmap(uc_, b, e - b);
  }

  // Maps a live code-cache region for execution (exactly the region, so
  // it can be dropped when the cache frees it), from a fetch hook. Returns
  // false, stopping the emulator, which Run restarts at the pc: Unicorn
  // 2.0.1 translates the block whose fetch faulted as if the page were not
  // RAM, and uc_ctl_remove_cache never finds that translation again, so it
  // would outlive a replacement of the code (measured; the restart costs
  // one uc_emu_start, ~1 us, per region).
  bool MapCodeForFetch(const CodeRegion& region) {
    if (!MapCode(region)) return false;
    restart_ = true;
    return false;
  }

  bool MapCode(const CodeRegion& region) {
    const uintptr_t start = reinterpret_cast<uintptr_t>(region.start);
    UnmapRange(start, start + region.mapped_size);
    const uc_err err = uc_mem_map_ptr(uc_, start, region.mapped_size, UC_PROT_READ | UC_PROT_EXEC,
                                      const_cast<uint8_t*>(region.start));
    if (err != UC_ERR_OK) {
      Fail(UcError(absl::StrCat("mapping code at ", Hex(start), " (pc ", Hex(Pc()), ")"), err));
      return false;
    }
    code_[start] = CodeMapping{region.mapped_size, ++code_serial_};
    runner_.stats_.code_maps.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  absl::Status AccessError(uc_mem_type type, uint64_t address, int size, absl::string_view why) {
    return absl::InternalError(absl::StrCat("aarch64 emulation: ", AccessName(type), " ",
                                            Hex(address), " (", size, " bytes) at pc ", Hex(Pc()),
                                            ": ", why));
  }

  // The first touch of an address: map the host memory there, or fail.
  bool MapOnDemand(uc_mem_type type, uint64_t address, int size) {
    const uintptr_t guard_lo = reinterpret_cast<uintptr_t>(stack_mapping_);
    if (address >= guard_lo && address < stack_lo_) {
      Fail(AccessError(type, address, size,
                       absl::StrCat("emulated stack overflow (stack ", Hex(stack_lo_), "-",
                                    Hex(stack_hi_), ")")));
      return false;
    }
    const bool fetch = type == UC_MEM_FETCH_UNMAPPED;
    const bool write = type == UC_MEM_WRITE_UNMAPPED;
    absl::StatusOr<CodeRegion> region =
        runner_.cache_.Lookup(reinterpret_cast<const void*>(address));
    if (region.ok()) {
      if (write) {
        Fail(AccessError(type, address, size, "installed code is never writable"));
        return false;
      }
      // Data reads of code (literal pools) map it for execution too: it is
      // mapped exactly once, as a region.
      return fetch ? MapCodeForFetch(*region) : MapCode(*region);
    }
    const std::optional<HostMapping> host = FindHostMapping(address);
    if (fetch) {
      Fail(AccessError(type, address, size,
                       host.has_value() && host->executable()
                           ? "host code, not a function announced with AllowHostCall"
                           : "not code installed in the runner's CodeCache"));
      return false;
    }
    if (!host.has_value()) {
      Fail(AccessError(type, address, size, "not mapped in the host"));
      return false;
    }
    if (!host->readable() || (write && !host->writable())) {
      Fail(AccessError(type, address, size, absl::StrCat("host protection ", host->perms)));
      return false;
    }
    // Host code (or another cache's) only a page at a time, read-only: its
    // pages may become host-call pages later.
    const uintptr_t page_lo = address & ~(uintptr_t{page_} - 1);
    uintptr_t lo = page_lo, hi = page_lo + page_;
    if (!host->executable()) {
      lo = std::max<uintptr_t>(host->start, address & ~(kWindow - 1));
      hi = std::min<uintptr_t>(host->end, (address & ~(kWindow - 1)) + kWindow);
    }
    // Clip to the gap around the address: parts of the window may be mapped.
    uc_mem_region* regions = nullptr;
    uint32_t count = 0;
    if (uc_mem_regions(uc_, &regions, &count) == UC_ERR_OK) {
      for (uint32_t i = 0; i < count; ++i) {
        const uintptr_t b = regions[i].begin, e = regions[i].end + 1;
        if (e <= address) lo = std::max(lo, e);
        if (b > address) hi = std::min(hi, b);
      }
      uc_free(regions);
    }
    const uint32_t perms = UC_PROT_READ | (host->writable() ? UC_PROT_WRITE : 0);
    const uc_err err = uc_mem_map_ptr(uc_, lo, hi - lo, perms, reinterpret_cast<void*>(lo));
    if (err != UC_ERR_OK) {
      Fail(AccessError(type, address, size,
                       absl::StrCat("mapping ", Hex(lo), "-", Hex(hi), ": ", uc_strerror(err))));
      return false;
    }
    runner_.stats_.data_maps.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  // An access the emulator's mapping forbids: the host may have changed the
  // memory's use since it was mapped here (freed and reused for code, or
  // made writable); follow the host, or fail.
  bool Reprotect(uc_mem_type type, uint64_t address, int size) {
    if (type == UC_MEM_FETCH_PROT) {
      absl::StatusOr<CodeRegion> region =
          runner_.cache_.Lookup(reinterpret_cast<const void*>(address));
      if (region.ok()) return MapCodeForFetch(*region);
      Fail(AccessError(type, address, size, "not code installed in the runner's CodeCache"));
      return false;
    }
    const uintptr_t page_lo = address & ~(uintptr_t{page_} - 1);
    if (host_call_pages_.count(page_lo) > 0) {
      Fail(AccessError(type, address, size, "the page of a host function (AllowHostCall)"));
      return false;
    }
    const bool write = type == UC_MEM_WRITE_PROT;
    const std::optional<HostMapping> host = FindHostMapping(address);
    if (!host.has_value() || !host->readable() || (write && !host->writable())) {
      Fail(AccessError(type, address, size,
                       host.has_value() ? absl::StrCat("host protection ", host->perms)
                                        : std::string("not mapped in the host")));
      return false;
    }
    const uint32_t perms = UC_PROT_READ | (host->writable() ? UC_PROT_WRITE : 0);
    const uc_err err = uc_mem_protect(uc_, page_lo, page_, perms);
    if (err != UC_ERR_OK) {
      Fail(AccessError(type, address, size, absl::StrCat("uc_mem_protect: ", uc_strerror(err))));
      return false;
    }
    return true;
  }

  static void OnBlock(uc_engine*, uint64_t address, uint32_t, void* self) {
    auto* e = static_cast<Emulator*>(self);
    const int64_t blocks = ++e->blocks_;
    if (blocks > e->runner_.options_.max_blocks) {
      e->Fail(absl::ResourceExhaustedError(
          absl::StrCat("aarch64 emulation: more than ", e->runner_.options_.max_blocks,
                       " blocks executed (at pc ", Hex(address), ")")));
    } else if ((blocks & 0xffff) == 0 && absl::Now() > e->deadline_) {
      e->Fail(absl::DeadlineExceededError(absl::StrCat(
          "aarch64 emulation: ran longer than ", absl::FormatDuration(e->runner_.options_.timeout),
          " (at pc ", Hex(address), ")")));
    }
  }

  static void OnHostCall(uc_engine* uc, uint64_t address, uint32_t, void* self) {
    auto* e = static_cast<Emulator*>(self);
    if (e->allowed_.count(address) == 0) {
      uint64_t lr = 0;
      uc_reg_read(uc, UC_ARM64_REG_X30, &lr);
      e->Fail(absl::FailedPreconditionError(
          absl::StrCat("aarch64 emulation: branch to host address ", Hex(address), " (lr ", Hex(lr),
                       "), not a function announced with AllowHostCall")));
      return;
    }
    uint64_t x[8] = {};
    int regs[] = {UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2, UC_ARM64_REG_X3,
                  UC_ARM64_REG_X4, UC_ARM64_REG_X5, UC_ARM64_REG_X6, UC_ARM64_REG_X7};
    void* vals[] = {&x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7]};
    uc_reg_read_batch(uc, regs, vals, 8);
    e->runner_.stats_.host_calls.fetch_add(1, std::memory_order_relaxed);
    auto fn = reinterpret_cast<HostFunction>(address);
    const ValuePair r =
        fn(static_cast<int64_t>(x[0]), static_cast<int64_t>(x[1]), static_cast<int64_t>(x[2]),
           static_cast<int64_t>(x[3]), static_cast<int64_t>(x[4]), static_cast<int64_t>(x[5]),
           static_cast<int64_t>(x[6]), static_cast<int64_t>(x[7]));
    // x0:x1 = the result; the other registers AAPCS64 lets a callee
    // clobber (x2-x18) get a recognizable garbage value, as a real call
    // may leave anything there: code that keeps a value in one across a
    // call fails here as it would on hardware, instead of passing.
    uint64_t out[19];
    out[0] = r.first;
    out[1] = r.second;
    int out_regs[19];
    void* out_vals[19];
    for (int i = 0; i < 19; ++i) {
      if (i >= 2) out[i] = kClobbered | static_cast<uint64_t>(i);
      out_regs[i] = UC_ARM64_REG_X0 + i;
      out_vals[i] = &out[i];
    }
    uc_reg_write_batch(uc, out_regs, out_vals, 19);
    // The function may have installed or freed code (a nested compile):
    // what the activation runs next must be the cache's current code. The
    // page's `ret` then returns to x30.
    e->SyncCode(false);
  }

  static bool OnUnmapped(uc_engine*, uc_mem_type type, uint64_t address, int size, int64_t,
                         void* self) {
    return static_cast<Emulator*>(self)->MapOnDemand(type, address, size);
  }

  static bool OnProtected(uc_engine*, uc_mem_type type, uint64_t address, int size, int64_t,
                          void* self) {
    return static_cast<Emulator*>(self)->Reprotect(type, address, size);
  }

  static void OnInterrupt(uc_engine* uc, uint32_t intno, void* self) {
    auto* e = static_cast<Emulator*>(self);
    uint64_t pc = e->Pc();
    std::string what;
    switch (intno) {
      case kExcpUdef:
        what = "undefined instruction";
        break;
      case kExcpBkpt:
        what = "brk";
        break;
      case kExcpPrefetchAbort:
        what = "prefetch abort";
        break;
      case kExcpDataAbort:
        what = "data abort (e.g. a misaligned exclusive access)";
        break;
      case kExcpUnaligned:
        what = "alignment fault";
        break;
      case kExcpSwi:
      case kExcpHvc:
      case kExcpSmc:
        // Reported with the pc after the instruction.
        what = "svc/hvc/smc (system calls are not emulated)";
        pc -= 4;
        break;
      default:
        what = absl::StrCat("exception ", intno);
        break;
    }
    uint32_t word = 0;
    std::string instruction;
    if (uc_mem_read(uc, pc, &word, sizeof(word)) == UC_ERR_OK) {
      instruction = absl::StrCat(" (instruction word ", Hex(word), ")");
    }
    e->Fail(absl::InternalError(
        absl::StrCat("aarch64 emulation: ", what, " at pc ", Hex(pc), instruction)));
  }

  UnicornRunner& runner_;
  const size_t page_;
  uc_engine* uc_ = nullptr;
  uint8_t* stack_mapping_ = nullptr;  // guard, then stack
  size_t stack_mapping_size_ = 0;
  uintptr_t stack_lo_ = 0;
  uintptr_t stack_hi_ = 0;  // sp at entry (16-byte aligned: page aligned)

  uint64_t allowed_version_ = 0;         // runner_.allowed_version_ last copied
  std::set<uintptr_t> allowed_;          // host functions
  std::set<uintptr_t> host_call_pages_;  // emulator-only pages with a hook
  struct CodeMapping {
    size_t size = 0;
    uint64_t serial = 0;  // order of mapping, for EvictCode
  };
  std::map<uintptr_t, CodeMapping> code_;  // code regions mapped, by start
  uint64_t code_serial_ = 0;
  uint64_t code_generation_ = 0;  // the cache generation code_'s translations match

  // The activation running (one at a time per emulator).
  int64_t blocks_ = 0;
  absl::Time deadline_;
  absl::Status error_;
  bool restart_ = false;  // stopped to map code (MapCodeForFetch)
};

// ------------------------------------------------------------- UnicornRunner

struct UnicornRunner::ThreadState {
  std::vector<std::unique_ptr<Emulator>> emulators;  // by nesting depth
  int depth = 0;                                     // activations running
};

absl::StatusOr<std::unique_ptr<UnicornRunner>> UnicornRunner::Create(
    const codegen::CodeCache& cache, UnicornRunnerOptions options) {
  unsigned int major = 0, minor = 0;
  uc_version(&major, &minor);
  if (major != 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("aarch64 emulation needs Unicorn 2, found ", major, ".", minor));
  }
  if (!uc_arch_supported(UC_ARCH_ARM64)) {
    return absl::FailedPreconditionError("this Unicorn has no AArch64 support");
  }
  if (SentinelAddress() == 0) {
    return absl::ResourceExhaustedError("aarch64 emulation: cannot reserve the sentinel page");
  }
  if (options.stack_bytes < 4 * HostPageSize() || options.stack_bytes % HostPageSize() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("stack_bytes must be a multiple of the page size, at least 4 pages: ",
                     options.stack_bytes));
  }
  if (options.max_depth < 1 || options.max_blocks < 1) {
    return absl::InvalidArgumentError("max_depth and max_blocks must be positive");
  }
  return std::unique_ptr<UnicornRunner>(new UnicornRunner(cache, options));
}

UnicornRunner::UnicornRunner(const codegen::CodeCache& cache, UnicornRunnerOptions options)
    : cache_(cache), options_(options) {}

UnicornRunner::~UnicornRunner() {
  std::lock_guard<std::mutex> lock(mu_);
  threads_.clear();
}

uintptr_t UnicornRunner::ThreadPointer() const {
  return reinterpret_cast<uintptr_t>(&thread_pointer_anchor);
}

absl::Status UnicornRunner::AllowHostCall(const void* fn) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(fn);
  if (address == 0) return absl::InvalidArgumentError("AllowHostCall: null function");
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (allowed_.count(address) > 0) return absl::OkStatus();
  }
  if (cache_.Lookup(fn).ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "AllowHostCall: ", Hex(address), " is installed code (emulated code calls it directly)"));
  }
  const std::optional<HostMapping> host = FindHostMapping(address);
  if (!host.has_value() || !host->executable()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "AllowHostCall: ", Hex(address), " is not host code (",
        host.has_value() ? absl::StrCat("protection ", host->perms) : std::string("not mapped"),
        ")"));
  }
  std::lock_guard<std::mutex> lock(mu_);
  // Each function's page holds a 4-byte `ret` at its address: two
  // functions closer than that cannot both be intercepted.
  auto next = allowed_.lower_bound(address);
  if (next != allowed_.end() && *next == address) return absl::OkStatus();  // raced
  const bool clash_next = next != allowed_.end() && *next - address < sizeof(kRet);
  const bool clash_prev = next != allowed_.begin() && address - *std::prev(next) < sizeof(kRet);
  if (clash_next || clash_prev) {
    return absl::InvalidArgumentError(absl::StrCat(
        "AllowHostCall: ", Hex(address), " is less than 4 bytes from another allowed function"));
  }
  allowed_.insert(address);
  allowed_version_.fetch_add(1, std::memory_order_release);
  return absl::OkStatus();
}

UnicornRunner::ThreadState& UnicornRunner::ThisThread() {
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<ThreadState>& state = threads_[std::this_thread::get_id()];
  // A thread that exited left its state (no Call running): a new thread
  // with the same id takes it over.
  if (state == nullptr) state = std::make_unique<ThreadState>();
  return *state;
}

absl::StatusOr<ValuePair> UnicornRunner::Call(const void* entry, absl::Span<const int64_t> args) {
  if (args.size() > 6) return absl::InvalidArgumentError("at most 6 arguments");
  ThreadState& thread = ThisThread();
  if (thread.depth >= options_.max_depth) {
    return absl::ResourceExhaustedError(
        absl::StrCat("aarch64 emulation: Calls nested deeper than max_depth ", options_.max_depth));
  }
  const size_t depth = static_cast<size_t>(thread.depth);
  if (thread.emulators.size() <= depth) {
    absl::StatusOr<std::unique_ptr<Emulator>> emulator = Emulator::Create(*this);
    if (!emulator.ok()) return emulator.status();
    thread.emulators.push_back(std::move(*emulator));
    stats_.emulators.fetch_add(1, std::memory_order_relaxed);
  }
  Emulator& emulator = *thread.emulators[depth];
  stats_.calls.fetch_add(1, std::memory_order_relaxed);
  ++thread.depth;
  absl::StatusOr<ValuePair> result = emulator.Run(reinterpret_cast<uintptr_t>(entry), args);
  --thread.depth;
  return result;
}

UnicornRunnerStats UnicornRunner::stats() const {
  UnicornRunnerStats s;
  s.calls = stats_.calls.load(std::memory_order_relaxed);
  s.host_calls = stats_.host_calls.load(std::memory_order_relaxed);
  s.emulators = stats_.emulators.load(std::memory_order_relaxed);
  s.code_maps = stats_.code_maps.load(std::memory_order_relaxed);
  s.data_maps = stats_.data_maps.load(std::memory_order_relaxed);
  s.invalidations = stats_.invalidations.load(std::memory_order_relaxed);
  s.code_evictions = stats_.code_evictions.load(std::memory_order_relaxed);
  return s;
}

namespace {

// Makes the runner what the shared lowering tests use for backend
// "aarch64" on this host (ir_harness.h). Each harness passes the cache it
// installs code in.
[[maybe_unused]] const bool registered = codegen::testing::RegisterCodeRunner(
    "aarch64",
    [](const codegen::Backend&,
       codegen::CodeCache& cache) -> absl::StatusOr<std::unique_ptr<codegen::testing::CodeRunner>> {
      absl::StatusOr<std::unique_ptr<UnicornRunner>> runner = UnicornRunner::Create(cache);
      if (!runner.ok()) return runner.status();
      return std::unique_ptr<codegen::testing::CodeRunner>(std::move(*runner));
    });

}  // namespace
}  // namespace morel::aarch64::testing
