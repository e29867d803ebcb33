#ifndef MOREL_TESTING_FUZZ_FUZZ_TARGET_H_
#define MOREL_TESTING_FUZZ_FUZZ_TARGET_H_

// What every fuzz target defines and uses. A target is one function,
//
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
//
// that returns 0 for every input and fails only by crashing: a sanitizer
// report, a native fault, or FuzzFailure for a broken property (a round
// trip that differs, two execution modes that disagree). libFuzzer
// (--config=fuzz) or the replay driver (replay_main.cc) calls it.
// LLVMFuzzerInitialize, optional, runs once first.

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace morel::fuzz {

// Prints "fuzz property failed: <property>" and `details` to stderr and
// aborts, so that the input is kept as a crash reproducer.
[[noreturn]] void FuzzFailure(absl::string_view property, absl::string_view details);

// The input as text (bytes as they are).
inline absl::string_view AsText(const uint8_t* data, size_t size) {
  return absl::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace morel::fuzz

#endif  // MOREL_TESTING_FUZZ_FUZZ_TARGET_H_
