#ifndef MOREL_LANGUAGES_SL_RUNTIME_BIG_INTEGER_H_
#define MOREL_LANGUAGES_SL_RUNTIME_BIG_INTEGER_H_

// Arbitrary-precision SL numbers (GMP) on the collected heap.
//
// Invariant: a kBigIntegerTag value is always outside the int64 range;
// every operation normalizes its result (sl_spec §5.1 allows it), so a
// number fits 64 bits iff it is a kLongTag value.
//
// A number's limbs are collected memory, collected with the number. GMP
// computes in memory of its own that it frees itself (malloc's:
// InitializeBigIntegers sets its allocator once); each result is copied
// into the collected heap.

#include <string>

#include "absl/strings/string_view.h"
#include "nodes/value.h"

namespace morel::sl {

void InitializeBigIntegers();

// Parses a decimal literal of any length.
Value NumberFromDecimal(absl::string_view digits);

// Arithmetic on Numbers (long or big) with exact results. Division
// truncates toward zero; the caller rules out a zero divisor.
Value BigAdd(Value a, Value b);
Value BigSub(Value a, Value b);
Value BigMul(Value a, Value b);
Value BigDiv(Value a, Value b);
// Three-way comparison of two Numbers.
int BigCompare(Value a, Value b);
// Decimal text of a Number.
std::string NumberToString(Value number);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_BIG_INTEGER_H_
