// A fuzz target with a planted bug for replay_main_test: any input holding
// the byte 0xff fails.
#include "testing/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0xff) morel::fuzz::FuzzFailure("no byte is 0xff", "planted bug");
  }
  return 0;
}
