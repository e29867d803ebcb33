#ifndef MOREL_LANGUAGES_SL_TESTING_RANDOM_PROGRAM_H_
#define MOREL_LANGUAGES_SL_TESTING_RANDOM_PROGRAM_H_

// Random SL programs for differential testing: every execution mode must
// print the same. Programs always terminate (loops count a fresh variable to
// a small bound; function i calls only functions j < i) and mix numbers
// (overflowing into big numbers), strings and booleans, so that type changes,
// deoptimization and guest errors happen along the way.

#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace morel::sl::testing {

std::string RandomSlProgram(uint64_t seed);

// The same generator with every choice read from `choices` (see
// testing/fuzz/byte_reader.h; once the bytes run out every choice is the
// first one), for sl_differential_fuzzer: a mutated byte changes one
// decision of the program.
std::string RandomSlProgramFromBytes(absl::Span<const uint8_t> choices);

}  // namespace morel::sl::testing

#endif  // MOREL_LANGUAGES_SL_TESTING_RANDOM_PROGRAM_H_
