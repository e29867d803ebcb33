#include "languages/sl/runtime/big_integer.h"

#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "languages/sl/runtime/values.h"
#include "nodes/heap.h"

namespace morel::sl {
namespace {

// A big number: an mpz whose limbs live in the collected heap.
struct SLBigInteger {
  mpz_t value;
};

// GMP's own memory: its temporaries and the results it is computing. It is
// malloc's, outside the collected heap, and GMP frees all of it itself
// (TMP_FREE, mpz_clear, realloc); a result is copied into the collected
// heap when it is done (Normalize). It holds no guest pointers: the
// operands' limbs are reachable from the operands on the stack. Collectable
// memory would not do: GMP links its large temporaries through their
// headers and keeps pointers to scratch blocks in other scratch blocks,
// which the collector does not scan when they are atomic, so it freed
// blocks GMP was still using (a 4 MB product crashed in mpn_mul_fft) --
// and scanning every number's limbs instead would retain garbage and mark
// megabytes of digits. (Boehm's uncollectable allocator worked too, but
// takes its lock twice per operation: 56% more instructions on a loop of
// factorials, against 12% with malloc.)
[[noreturn]] void OutOfMemory(size_t bytes) {
  std::fprintf(stderr, "Out of memory: GMP could not allocate %zu bytes.\n", bytes);
  std::abort();
}
void* GmpAllocate(size_t bytes) {
  void* block = std::malloc(bytes);
  if (block == nullptr) OutOfMemory(bytes);
  return block;
}
void* GmpReallocate(void* old, size_t, size_t new_bytes) {
  void* block = std::realloc(old, new_bytes);
  if (block == nullptr) OutOfMemory(new_bytes);
  return block;
}
void GmpFree(void* block, size_t) { std::free(block); }

// A stack temporary holding any Number as an mpz. GMP only reads it: a big
// number's limbs are collected memory, which GMP never frees or grows.
class Operand {
 public:
  explicit Operand(const Value& v) {
    if (v.IsLong()) {
      // A read-only mpz over one limb on the stack: no allocation.
      const int64_t n = v.AsLong();
      limb_ = n < 0 ? 0 - static_cast<mp_limb_t>(n) : static_cast<mp_limb_t>(n);
      pointer_ = mpz_roinit_n(local_, &limb_, n < 0 ? -1 : (n == 0 ? 0 : 1));
    } else {
      pointer_ = v.As<SLBigInteger>()->value;
    }
  }
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;
  mpz_srcptr get() const { return pointer_; }

 private:
  mp_limb_t limb_;
  mpz_t local_;
  mpz_srcptr pointer_;
};

// The Number `result` holds; clears `result` (GMP's memory).
Value Normalize(mpz_t result) {
  if (mpz_fits_slong_p(result)) {
    const Value value = Value::Long(mpz_get_si(result));
    mpz_clear(result);
    return value;
  }
  // The limbs move into collected memory reachable from `big`.
  const size_t limbs = mpz_size(result);
  auto* copy = static_cast<mp_limb_t*>(heap::AllocateAtomic(limbs * sizeof(mp_limb_t)));
  std::memcpy(copy, mpz_limbs_read(result), limbs * sizeof(mp_limb_t));
  auto* big = static_cast<SLBigInteger*>(heap::AllocateTraced(sizeof(SLBigInteger)));
  big->value->_mp_alloc = static_cast<int>(limbs);
  big->value->_mp_size = result->_mp_size;
  big->value->_mp_d = copy;
  mpz_clear(result);
  return Value::Reference(kBigIntegerTag, big);
}

}  // namespace

void InitializeBigIntegers() {
  static std::once_flag once;
  std::call_once(once, [] {
    heap::Initialize();
    mp_set_memory_functions(GmpAllocate, GmpReallocate, GmpFree);
  });
}

Value NumberFromDecimal(absl::string_view digits) {
  InitializeBigIntegers();
  std::string text(digits);
  mpz_t result;
  mpz_init_set_str(result, text.c_str(), 10);
  return Normalize(result);
}

// One exact arithmetic operation on two Numbers.
template <void (*kOperation)(mpz_ptr, mpz_srcptr, mpz_srcptr)>
Value Exact(Value a, Value b) {
  Operand x(a), y(b);
  mpz_t r;
  mpz_init(r);
  kOperation(r, x.get(), y.get());
  return Normalize(r);
}

Value BigAdd(Value a, Value b) { return Exact<mpz_add>(a, b); }
Value BigSub(Value a, Value b) { return Exact<mpz_sub>(a, b); }
Value BigMul(Value a, Value b) { return Exact<mpz_mul>(a, b); }
Value BigDiv(Value a, Value b) { return Exact<mpz_tdiv_q>(a, b); }

int BigCompare(Value a, Value b) {
  if (a.IsLong() && b.IsLong()) {
    return a.AsLong() < b.AsLong() ? -1 : (a.AsLong() > b.AsLong() ? 1 : 0);
  }
  Operand x(a), y(b);
  int c = mpz_cmp(x.get(), y.get());
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::string NumberToString(Value number) {
  if (number.IsLong()) return absl::StrCat(number.AsLong());
  mpz_srcptr value = number.As<SLBigInteger>()->value;
  std::string text(mpz_sizeinbase(value, 10) + 2, '\0');
  mpz_get_str(text.data(), 10, value);
  text.resize(std::strlen(text.c_str()));
  return text;
}

}  // namespace morel::sl
