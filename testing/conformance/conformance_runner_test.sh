#!/usr/bin/env bash
# Self-test of conformance_runner with the fake launcher (testdata/): the
# report for failing programs (diff, exit status mismatch, timeout, missing
# .output), the runner's own exit status, --filter, --bless, the compiled-mode
# check (--compiled_mode) and usage errors.
set -u
base="$TEST_SRCDIR/morel/testing/conformance"
runner="$base/conformance_runner"
# Under --config=a64 the runner runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
runner=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$runner")
launcher="$base/fake_launcher"
passing="$base/testdata/passing"
failing="$base/testdata/failing"
compiled="$base/testdata/compiled"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

check() {  # check <name> <want status> <want output> -- command...
  local name=$1 want_status=$2 want_out=$3
  shift 4
  local out status
  out=$("$@" 2>&1)
  status=$?
  [[ $status -eq $want_status ]] || fail "$name: exit status $status, want $want_status"
  if [[ "$out" != "$want_out" ]]; then
    fail "$name: output differs"
    diff <(printf '%s\n' "$want_out") <(printf '%s\n' "$out")
  fi
}

check "all passing" 0 "PASS background_child
PASS exit_status
PASS hello
PASS launcher_args
PASS no_input
PASS no_trailing_newline
PASS stderr_after_stdout
PASS stdin
8 passed, 0 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$passing" --extension=fake --launcher_arg=--greeting=hi

check "failing" 1 "PASS a_pass
FAIL missing_output
    missing expected output file $failing/missing_output.output
    output differs (expected vs actual stdout+stderr):
    --- missing_output.output
    +++ missing_output (actual)
    @@ -0,0 +1,1 @@
    +something
FAIL timeout
    exit status: expected 0, got timed out after 1 s (killed)
FAIL wrong_output
    output differs (expected vs actual stdout+stderr):
    --- wrong_output.output
    +++ wrong_output (actual)
    @@ -1,5 +1,5 @@
     one
     two
     three
    -expected line
    +actual line
     five
FAIL wrong_status
    exit status: expected 0, got 4
1 passed, 4 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$failing" --extension=fake --timeout_seconds=1

# The timeout really kills the program (it sleeps 30 s).
start=$SECONDS
"${runner[@]}" --launcher="$launcher" --tests="$failing" --extension=fake --timeout_seconds=1 \
  --filter=timeout >/dev/null
(( SECONDS - start < 10 )) || fail "timeout: the runner took $((SECONDS - start)) s"

check "filter" 0 "PASS exit_status
1 passed, 0 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$passing" --extension=fake --filter=exit

# Launcher arguments are passed before the program file, in order.
check "launcher args" 1 "FAIL launcher_args
    output differs (expected vs actual stdout+stderr):
    --- launcher_args.output
    +++ launcher_args (actual)
    @@ -1,1 +1,1 @@
    -args: --greeting=hi
    +args: --a --b=c
0 passed, 1 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$passing" --extension=fake --filter=launcher_args \
  --launcher_arg=--a --launcher_arg=--b=c

# A missing trailing newline is a difference, and shows in the diff.
work="$TEST_TMPDIR/work"
rm -rf "$work" && mkdir -p "$work" && cp -L "$passing"/no_trailing_newline.* "$work"/
printf 'no newline at the end\n' > "$work/no_trailing_newline.output"
check "trailing newline" 1 "FAIL no_trailing_newline
    output differs (expected vs actual stdout+stderr):
    --- no_trailing_newline.output
    +++ no_trailing_newline (actual)
    @@ -1,1 +1,1 @@
    -no newline at the end
    +no newline at the end
    \\ No newline at end of file
0 passed, 1 failed" -- "${runner[@]}" --launcher="$launcher" --tests="$work" --extension=fake

# --bless rewrites .output and .exit from the actual results; a timed-out
# program is not blessed.
bless="$TEST_TMPDIR/bless"
rm -rf "$bless" && mkdir -p "$bless" && cp -L "$failing"/* "$bless"/
chmod u+w "$bless"/*
check "bless" 1 "BLESS a_pass
BLESS missing_output
FAIL timeout
    not blessed: timed out after 1 s (killed)
BLESS wrong_output
BLESS wrong_status
4 passed, 1 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$bless" --extension=fake --timeout_seconds=1 --bless
[[ "$(cat "$bless/wrong_status.exit")" == 4 ]] || fail "bless: wrong_status.exit is not 4"
[[ ! -e "$bless/a_pass.exit" ]] || fail "bless: a_pass.exit was created"
[[ "$(cat "$bless/missing_output.output")" == something ]] || fail "bless: missing_output.output"
rm "$bless"/timeout.*
check "after bless" 0 "PASS a_pass
PASS missing_output
PASS wrong_output
PASS wrong_status
4 passed, 0 failed" -- "${runner[@]}" --launcher="$launcher" --tests="$bless" --extension=fake

# Compiled mode: each run's compilation statistics (written by the fake
# launcher from its "stat" lines) must show that what was due compiled, no
# compiler failure outside the allowance, no recompilation limit without
# forced deopts; a run without statistics fails.
check "compiled mode" 1 "PASS background_queued
PASS compiled
PASS compiler_failure
PASS forced_deopts
FAIL gave_up
    [fake_mode] 1 call target(s) stopped being compiled by the recompilation policy (deopt cycle or MaximumCompilations) although no deoptimization was forced (DeoptEveryN=0): compiled code kept deoptimizing
    compilation statistics: successful 5, failed 0, recompilation limits 1, deopts 0, invalidations 0; guest call targets executed 0, due for compilation 1
FAIL no_statistics
    [fake_mode] no compilation statistics: the launcher did not write the file named by --engine.CompilationStatisticsFile=... (a Morel engine writes it when it closes)
FAIL not_compiled
    [fake_mode] nothing was compiled: 3 guest call target(s) reached the compilation threshold, 0 compilations succeeded (0 failed): this mode ran in the interpreter
    compilation statistics: successful 0, failed 0, recompilation limits 0, deopts 0, invalidations 0; guest call targets executed 0, due for compilation 3
PASS nothing_due
compiled mode fake_mode: 4 of 8 programs compiled code, 6 had call targets due
5 passed, 3 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$compiled" --extension=fake \
  --compiled_mode=fake_mode --allow_compilation_failure=compiler_failure

check "compiler failure not allowed" 1 "FAIL compiler_failure
    [fake_mode] 1 compilation(s) failed permanently (\"opt failed\"): the compiler could not compile code this program ran (--engine.TraceCompilation prints the reasons)
    compilation statistics: successful 1, failed 1, recompilation limits 0, deopts 0, invalidations 0; guest call targets executed 0, due for compilation 2
compiled mode fake_mode: 1 of 1 programs compiled code, 1 had call targets due
0 passed, 1 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$compiled" --extension=fake \
  --compiled_mode=fake_mode --filter=compiler_failure

check "stale allowance" 0 "PASS nothing_due
    note: [fake_mode] allowed to fail compilation, but no compilation failed: remove the allowance
compiled mode fake_mode: 0 of 1 programs compiled code, 0 had call targets due
1 passed, 0 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$compiled" --extension=fake \
  --compiled_mode=fake_mode --filter=nothing_due --allow_compilation_failure=nothing_due

# With background compilation a run is not judged alone, but some run of
# the mode must have compiled.
check "background: nothing compiled in any program" 1 "PASS background_queued
compiled mode fake_mode: 0 of 1 programs compiled code, 1 had call targets due
FAIL [fake_mode] nothing was compiled in any program: 1 program(s) had guest call targets due for compilation, none compiled anything
1 passed, 0 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$compiled" --extension=fake \
  --compiled_mode=fake_mode --filter=background_queued

# Without --compiled_mode nothing is asked of compilation.
check "not a compiled mode" 0 "PASS not_compiled
1 passed, 0 failed" -- \
  "${runner[@]}" --launcher="$launcher" --tests="$compiled" --extension=fake --filter=not_compiled

# A launcher that cannot be executed fails every program.
check "bad launcher" 1 "FAIL hello
    cannot execute $TEST_TMPDIR/no_such_launcher: No such file or directory
0 passed, 1 failed" -- \
  "${runner[@]}" --launcher="$TEST_TMPDIR/no_such_launcher" --tests="$passing" --extension=fake \
  --filter=hello

# Usage errors: exit status 2.
for args in "" "--launcher=$launcher" "--tests=$passing" \
    "--launcher=$launcher --tests=$TEST_TMPDIR/no_such_dir" \
    "--launcher=$launcher --tests=$passing --extension=fake --filter=nothing_matches" \
    "--launcher=$launcher --tests=$passing" \
    "--launcher=$launcher --tests=$passing --timeout_seconds=0" \
    "--launcher=$launcher --tests=$passing --bogus" \
    "--launcher=$launcher --tests=$passing --compiled_mode=" \
    "--launcher=$launcher --tests=$compiled --extension=fake --allow_compilation_failure=gave_up" \
    "--launcher=$launcher --tests=$compiled --extension=fake --compiled_mode=m --allow_compilation_failure=no_such_program"; do
  # shellcheck disable=SC2086
  "${runner[@]}" $args >/dev/null 2>&1
  status=$?
  [[ $status -eq 2 ]] || fail "usage error '$args': exit status $status, want 2"
done

if [[ $failures -ne 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "all checks passed"
