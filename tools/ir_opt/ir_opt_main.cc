// ir_opt: runs optimization passes over IR text and prints the result (the
// analogue of LLVM's `opt`).
//
//   bazel run //tools/ir_opt -- --passes=canonicalize,gvn,dce [--verify] file.ir
//
// Flags:
//   --passes=a,b,c        passes to run, in order (default: the default pipeline)
//   --verify              verify the input and after every pass (VerifyIR)
//   --fuel=N              OptimizationFuel: at most N rewrites
//   --dump-ir=a,b|all     print the IR after these passes to stderr (DumpIR)
//   --disable-passes=a,b  skip these passes (DisablePasses)
//   --stats               print per-pass statistics to stderr
//   --list-passes         print the registered passes and exit
// The input is a file, or stdin for "-" or no file. Exit status: 0 on
// success, 1 on a parse/verify/pass error, 2 on bad usage.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/opt/pipeline.h"
#include "engine/opt/standard_passes.h"

namespace {

int Usage(const std::string& message) {
  std::cerr << "ir_opt: " << message << "\n"
            << "usage: ir_opt [--passes=a,b] [--verify] [--fuel=N] [--dump-ir=a,b|all]\n"
            << "              [--disable-passes=a,b] [--stats] [--list-passes] [file.ir|-]\n";
  return 2;
}

bool Flag(const std::string& arg, absl::string_view name, std::string* value) {
  std::string prefix = std::string(name) + "=";
  if (!absl::StartsWith(arg, prefix)) return false;
  *value = arg.substr(prefix.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  namespace opt = morel::opt;
  std::string passes = opt::kDefaultPassList;
  std::string file = "-";
  bool stats = false;
  opt::PipelineOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (Flag(arg, "--passes", &value)) {
      passes = value;
    } else if (arg == "--verify") {
      options.verify_ir = true;
    } else if (Flag(arg, "--fuel", &value)) {
      if (!absl::SimpleAtoi(value, &options.optimization_fuel)) return Usage("bad --fuel");
    } else if (Flag(arg, "--dump-ir", &value)) {
      options.dump_ir = opt::SplitPassList(value);
    } else if (Flag(arg, "--disable-passes", &value)) {
      options.disable_passes = opt::SplitPassList(value);
    } else if (arg == "--stats") {
      stats = true;
    } else if (arg == "--list-passes") {
      std::cout << absl::StrJoin(opt::PassRegistry::Standard().names(), "\n") << "\n";
      return 0;
    } else if (absl::StartsWith(arg, "--")) {
      return Usage("unknown flag " + arg);
    } else {
      file = arg;
    }
  }
  std::stringstream text;
  if (file == "-") {
    text << std::cin.rdbuf();
  } else {
    // Under `bazel run`, relative paths are relative to where the user was.
    const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
    if (cwd != nullptr && !file.empty() && file[0] != '/') file = std::string(cwd) + "/" + file;
    std::ifstream in(file);
    if (!in) {
      std::cerr << "ir_opt: cannot read " << file << "\n";
      return 1;
    }
    text << in.rdbuf();
  }
  auto pipeline = opt::BuildPipeline(passes, options);
  if (!pipeline.ok()) {
    std::cerr << "ir_opt: " << pipeline.status().message() << "\n";
    return 2;
  }
  morel::ir::RuntimeRegistry registry;
  auto functions = morel::ir::ParseFunctions(text.str(), &registry);
  if (!functions.ok()) {
    std::cerr << "ir_opt: " << file << ": " << functions.status().message() << "\n";
    return 1;
  }
  for (const auto* f : registry.functions()) {
    std::cout << morel::ir::PrintRuntimeDeclaration(*f) << "\n";
  }
  if (!registry.functions().empty()) std::cout << "\n";
  for (size_t i = 0; i < functions->size(); ++i) {
    auto& f = *(*functions)[i];
    auto r = (*pipeline)->Run(f);
    if (!r.ok()) {
      std::cerr << "ir_opt: @" << f.name() << ": " << r.status().message() << "\n";
      return 1;
    }
    if (i > 0) std::cout << "\n";
    std::cout << morel::ir::PrintFunction(f);
  }
  if (stats) {
    std::cerr << (*pipeline)->StatsReport();
    if ((*pipeline)->fuel().exhausted()) {
      std::cerr << "fuel exhausted after " << (*pipeline)->fuel().consumed() << " rewrites\n";
    }
  }
  return 0;
}
