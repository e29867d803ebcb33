#include "languages/sl/sl_launcher.h"

#include "absl/strings/str_cat.h"
#include "engine/runtime/engine.h"
#include "languages/sl/runtime/sl_error.h"
#include "languages/sl/runtime/value_printing.h"
#include "languages/sl/runtime/values.h"
#include "languages/sl/sl_context.h"
#include "nodes/heap.h"

namespace morel::sl {
namespace {

// Guest code's stack: reserved, committed only as recursion touches it.
// AddressSanitizer cannot unwind an exception across more than 64 MiB of
// stack (it skips unpoisoning and reports false stack-buffer-overflows), so
// sanitized builds use less.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kGuestStackBytes = size_t{48} << 20;
#else
constexpr size_t kGuestStackBytes = size_t{256} << 20;
#endif

struct Job {
  const ProgramRun* run;
  int status = 0;
};

void PrintError(const ProgramRun& run, absl::string_view message) {
  std::fflush(run.out);
  std::string line = absl::StrCat(message, "\n");
  std::fwrite(line.data(), 1, line.size(), run.err);
  std::fflush(run.err);
}

int RunInContext(const ProgramRun& run, SLContext& context) {
  int status = 0;
  try {
    try {
      absl::StatusOr<SLFunction*> main = context.Load(run.source_text, run.source_name);
      if (!main.ok()) {
        PrintError(run, main.status().message());
        return 1;
      }
      if (*main == nullptr) {
        PrintError(run, "No function main() defined in SL source file.");
        return 1;
      }
      Value result = context.Call(*main, {});
      if (!IsNull(result)) context.Print(absl::StrCat(DisplayString(result), "\n"));
    } catch (const ResourceLimitError& error) {
      // A sandbox limit cancelled the program: the context is closed
      // without running guest code again (its shutdown hooks included).
      PrintError(run, error.message());
      return 1;
    } catch (const GuestError& error) {
      PrintError(run, error.message());
      status = 1;
    }
    // The context closes: hooks run after a normal end and after an error.
    context.RunShutdownHooks();
  } catch (const SLExit& exit) {
    try {
      context.RunShutdownHooks();
    } catch (const GuestError& error) {
      PrintError(run, error.message());
    } catch (const SLExit&) {
    }
    return exit.status();
  } catch (const GuestError& error) {
    // Also a ResourceLimitError raised by a shutdown hook.
    PrintError(run, error.message());
    return 1;
  }
  return status;
}

void RunJob(void* raw) {
  Job* job = static_cast<Job*>(raw);
  const ProgramRun& run = *job->run;
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine =
      runtime::Engine::Create(run.config);
  if (!engine.ok()) {
    PrintError(run, engine.status().message());
    job->status = 2;
    return;
  }
  SLContext context(engine->get(), run.out, run.in);
  job->status = RunInContext(run, context);
}

}  // namespace

int RunProgram(const ProgramRun& run) {
  Job job{&run};
  heap::RunOnLargeStack(kGuestStackBytes, RunJob, &job);
  return job.status;
}

}  // namespace morel::sl
