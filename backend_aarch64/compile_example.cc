// The AArch64 backend used alone: //backend_aarch64 with //engine/ir and
// //engine/codegen, nothing else of the engine. Parses a loop from IR text,
// compiles it to AArch64 machine code and prints the disassembly (on any
// host: the loop's multiply-add is one madd); on an AArch64 host it also
// calls the code as a C function and checks it against the IR reference
// interpreter. Exits non-zero on any difference.

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "backend_aarch64/aarch64_backend.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/compile.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/parser.h"

namespace {

// The sum of i * i for i in [0, n).
constexpr char kProgram[] = R"(
func @sum_of_squares(i64) -> (i64) {
block0(v0: i64):
  v1 = iconst.i64 0
  jump block1(v1, v1)
block1(v2: i64, v3: i64):
  v4 = icmp slt v2, v0
  br v4, block2, block3
block2:
  v5 = imul v2, v2
  v6 = iadd v3, v5
  v7 = iconst.i64 1
  v8 = iadd v2, v7
  jump block1(v8, v6)
block3:
  return v3
}
)";

}  // namespace

int main() {
  namespace codegen = morel::codegen;
  namespace ir = morel::ir;

  ir::RuntimeRegistry registry;
  auto functions = ir::ParseFunctions(kProgram, &registry);
  if (!functions.ok()) {
    std::cerr << "parse: " << functions.status() << "\n";
    return 1;
  }
  const ir::Function& function = *functions->front();

  std::unique_ptr<codegen::Backend> backend = morel::aarch64::CreateAarch64Backend();
  codegen::CodeCache cache;
  absl::StatusOr<codegen::CompiledFunction> compiled =
      codegen::CompileFunction(function, *backend, cache, codegen::NativeCompileOptions());
  if (!compiled.ok()) {
    std::cerr << "compile: " << compiled.status() << "\n";
    return 1;
  }
  absl::StatusOr<std::string> disassembly = backend->Disassemble(
      absl::MakeConstSpan(static_cast<const uint8_t*>(compiled->entry), compiled->code_size),
      reinterpret_cast<uint64_t>(compiled->entry));
  std::cout << (disassembly.ok() ? *disassembly : disassembly.status().ToString()) << "\n";
  if (!disassembly.ok() || disassembly->find("madd") == std::string::npos) {
    std::cerr << "expected the loop's imul + iadd as one madd\n";
    return 1;
  }
#if !defined(__aarch64__)
  std::cout << "(not an AArch64 host: the code is not run here; backend_aarch64/testing runs "
               "such code under an emulator)\n";
  return cache.Free(compiled->code.region.start).ok() ? 0 : 1;
#endif

  auto entry = reinterpret_cast<codegen::ValuePair (*)(int64_t)>(compiled->entry);
  for (int64_t n : {0, 1, 10, 1000}) {
    const int64_t native = static_cast<int64_t>(entry(n).first);
    absl::StatusOr<ir::ExecutionResult> interpreted = ir::Interpret(function, {n});
    std::cout << "sum_of_squares(" << n << ") = " << native << "\n";
    if (!interpreted.ok() || interpreted->values != std::vector<int64_t>{native}) {
      std::cerr << "the interpreter disagrees for n = " << n << "\n";
      return 1;
    }
  }
  return cache.Free(compiled->code.region.start).ok() ? 0 : 1;
}
