#include "languages/sl/runtime/big_integer.h"

#include <gmp.h>

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

void* GcAllocate(size_t bytes) { return heap::AllocateAtomic(bytes); }
void* GcReallocate(void* old, size_t old_bytes, size_t new_bytes) {
  void* fresh = heap::AllocateAtomic(new_bytes);
  std::memcpy(fresh, old, old_bytes < new_bytes ? old_bytes : new_bytes);
  return fresh;
}
void GcFree(void*, size_t) {}  // the collector reclaims limbs

// A stack temporary holding any Number as an mpz.
class Operand {
 public:
  explicit Operand(const Value& v) {
    if (v.IsLong()) {
      mpz_init_set_si(local_, v.AsLong());
      pointer_ = local_;
    } else {
      pointer_ = v.As<SLBigInteger>()->value;
    }
  }
  mpz_srcptr get() const { return pointer_; }

 private:
  mpz_t local_;
  mpz_srcptr pointer_;
};

Value Normalize(mpz_t result) {
  if (mpz_fits_slong_p(result)) return Value::Long(mpz_get_si(result));
  auto* big = static_cast<SLBigInteger*>(heap::AllocateTraced(sizeof(SLBigInteger)));
  // Take over the limbs: they are collected memory reachable from `big`.
  std::memcpy(big->value, result, sizeof(mpz_t));
  return Value::Reference(kBigIntegerTag, big);
}

}  // namespace

void InitializeBigIntegers() {
  static std::once_flag once;
  std::call_once(once, [] {
    heap::Initialize();
    mp_set_memory_functions(GcAllocate, GcReallocate, GcFree);
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
