#!/usr/bin/env bash
# Self-test of differential_runner with the fake launcher (testdata/): the
# exact report for a stdout, stderr, exit-status, signal and timeout
# difference, the expected-file check of the baseline, exclusions (XFAIL and
# XPASS), masks, the compiled-mode check (compilation statistics, allowances,
# a mode that compiled nothing), --filter, --shard, --jobs, and usage errors.
# Timing lines are dropped before comparing (tests never assert timings), and
# so is the per-mode compilation line except in the compiled-mode checks.
set -u
cd "$TEST_SRCDIR/morel" || exit 1
runner=testing/differential/differential_runner
# Under --config=a64 the runner runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
runner=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$runner")
launcher=testing/differential/fake_launcher
programs=testing/differential/testdata/programs
compiled=testing/differential/testdata/compiled
keep_compilation_line=0
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

run() {  # the runner's output without its timing lines
  local drop=(-e '^time per configuration' -e '^slowest run')
  [[ $keep_compilation_line -eq 1 ]] || drop+=(-e '^programs that compiled code')
  "${runner[@]}" "$@" 2>&1 | grep -v "${drop[@]}"
  return "${PIPESTATUS[0]}"
}

check() {  # check <name> <want status> <want output> -- runner args...
  local name=$1 want_status=$2 want_out=$3
  shift 4
  local out status
  out=$(run "$@")
  status=$?
  [[ $status -eq $want_status ]] || fail "$name: exit status $status, want $want_status"
  if [[ "$out" != "$want_out" ]]; then
    fail "$name: output differs"
    diff <(printf '%s\n' "$want_out") <(printf '%s\n' "$out")
  fi
}

all=("$programs"/*)

check "all agree" 0 "PASS agree
PASS slow
PASS status_differs
PASS stdin
PASS stdout_differs
PASS timing
6 passed, 0 failed (6 programs x 2 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=plain --mode=flags:--unused \
  --mode=flags:--other -- "${all[@]}"

check "stdout differs" 1 "FAIL stdout_differs
  [broken] differs from [interpreter] (flags: --broken_stdout)
    stdout differs:
      --- stdout_differs stdout [interpreter]
      +++ stdout_differs stdout [broken]
      @@ -2,7 +2,7 @@
       2
       3
       4
      -5
      +four
       6
       7
       8
    command: $launcher --broken_stdout $programs/stdout_differs.fake
    reproduce: bazel run //testing/differential:fake_launcher -- --broken_stdout $programs/stdout_differs.fake
    baseline: $launcher --engine.Compilation=false $programs/stdout_differs.fake
0 passed, 1 failed (1 programs x 2 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --launcher_label=//testing/differential:fake_launcher \
  --mode=plain --mode=broken:--broken_stdout --filter=stdout -- "${all[@]}"

check "max diff lines" 1 "FAIL stdout_differs
  [broken] differs from [interpreter] (flags: --broken_stdout)
    stdout differs:
      --- stdout_differs stdout [interpreter]
      +++ stdout_differs stdout [broken]
      @@ -2,7 +2,7 @@
      ... (8 more diff lines)
    command: $launcher --broken_stdout $programs/stdout_differs.fake
    baseline: $launcher --engine.Compilation=false $programs/stdout_differs.fake
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --max_diff_lines=3 \
  --mode=broken:--broken_stdout --filter=stdout -- "${all[@]}"

# stderr, exit status and signal differences, each reported for its mode;
# the baseline's flags come from --baseline.
check "stderr and status differ" 1 "FAIL status_differs
  [stderr] differs from [interp] (flags: --broken_stderr)
    stderr differs:
      --- status_differs stderr [interp]
      +++ status_differs stderr [stderr]
      @@ -0,0 +1,1 @@
      +engine: something went wrong
    command: $launcher --broken_stderr $programs/status_differs.fake
    baseline: $launcher --no-compile $programs/status_differs.fake
  [status] differs from [interp] (flags: --fail)
    exit status: interp 0, status 1
    command: $launcher --fail $programs/status_differs.fake
    baseline: $launcher --no-compile $programs/status_differs.fake
  [crash] differs from [interp] (flags: --crash --x)
    exit status: interp 0, crash killed by signal 11
    command: $launcher --crash --x $programs/status_differs.fake
    baseline: $launcher --no-compile $programs/status_differs.fake
0 passed, 1 failed (1 programs x 4 modes + interp)" -- \
  --launcher="$launcher" --extension=fake --baseline=interp:--no-compile \
  --mode=plain --mode=stderr:--broken_stderr --mode=status:--fail --mode=crash:--crash \
  --mode=crash:--x --filter=status -- "${all[@]}"

# A mode that hangs is killed at the timeout, and the report says so.
start=$SECONDS
check "timeout" 1 "FAIL slow
  [slow] differs from [interpreter] (flags: --slow)
    exit status: interpreter 0, slow timed out after 1 s (killed)
    stdout differs:
      --- slow stdout [interpreter]
      +++ slow stdout [slow]
      @@ -1,2 +1,1 @@
       before
      -after
    command: $launcher --slow $programs/slow.fake
    baseline: $launcher --engine.Compilation=false $programs/slow.fake
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --timeout_seconds=1 --mode=slow:--slow \
  --filter=slow -- "${all[@]}"
(( SECONDS - start < 10 )) || fail "timeout: the runner took $((SECONDS - start)) s"

# A baseline that does not finish fails the program without comparing.
check "baseline crashes" 1 "FAIL status_differs
  [interpreter] did not finish: killed by signal 11
    command: $launcher --crash $programs/status_differs.fake
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --baseline=interpreter:--crash --mode=plain \
  --filter=status -- "${all[@]}"

# Stdin comes from the .input file; the command line shows the redirection.
check "stdin" 1 "FAIL stdin
  [extra] differs from [interpreter] (flags: --broken_stdout)
    stdout differs:
      --- stdin stdout [interpreter]
      +++ stdin stdout [extra]
      @@ -1,3 +1,4 @@
       reading
       first line
       second line
      +extra line
    command: $launcher --broken_stdout $programs/stdin.fake < $programs/stdin.input
    baseline: $launcher --engine.Compilation=false $programs/stdin.fake < $programs/stdin.input
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=extra:--broken_stdout --filter=stdin \
  -- "${all[@]}"

# Exclusions: an excluded pair that differs is reported (XFAIL) but does not
# fail; one that agrees (XPASS) is reported so the entry can be removed.
check "exclusions" 0 "PASS status_differs
  [status] XFAIL (excluded) differs from [interpreter] (flags: --fail)
    exit status: interpreter 0, status 1
    command: $launcher --fail $programs/status_differs.fake
    baseline: $launcher --engine.Compilation=false $programs/status_differs.fake
PASS stdout_differs
  [status] XPASS: excluded but agrees with the baseline now; remove the exclusion
2 passed, 0 failed (2 programs x 1 modes + interpreter), 1 excluded differ, 1 excluded agree" -- \
  --launcher="$launcher" --extension=fake --mode=status:--fail --filter=differs \
  --exclude=status_differs:status --exclude=stdout_differs:status -- "${all[@]}"

# --mask hides what legitimately varies (elapsed times), and only that: the
# first capture group, or the whole match without one.
check "unmasked" 1 "FAIL timing
  [clock] differs from [interpreter] (flags: --other_clock)
    stdout differs:
      --- timing stdout [interpreter]
      +++ timing stdout [clock]
      @@ -1,2 +1,2 @@
      -elapsed 100 ns
      +elapsed 250 ns
       checksum 7
    command: $launcher --other_clock $programs/timing.fake
    baseline: $launcher --engine.Compilation=false $programs/timing.fake
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=clock:--other_clock --filter=timing -- "${all[@]}"
check "masked group" 0 "PASS timing
masked before comparing: ^elapsed ([0-9]+) ns$
1 passed, 0 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=clock:--other_clock --filter=timing \
  '--mask=^elapsed ([0-9]+) ns$' -- "${all[@]}"
check "masked match" 0 "PASS timing
masked before comparing: [0-9]+ ns  nothing
1 passed, 0 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=clock:--other_clock --filter=timing \
  '--mask=[0-9]+ ns' --mask=nothing -- "${all[@]}"
# A mask that would also hide the checksum still shows a checksum difference
# elsewhere: masking is per match, not per line.
check "mask is per match" 1 "FAIL stdout_differs
  [broken] differs from [interpreter] (flags: --broken_stdout)
    stdout differs:
      --- stdout_differs stdout [interpreter]
      +++ stdout_differs stdout [broken]
      @@ -2,7 +2,7 @@
       2
       3
       4
      -<masked>
      +four
       6
       7
       8
    command: $launcher --broken_stdout $programs/stdout_differs.fake
    baseline: $launcher --engine.Compilation=false $programs/stdout_differs.fake
masked before comparing: ^5$
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=broken:--broken_stdout --filter=stdout \
  '--mask=^5$' -- "${all[@]}"

# The baseline must also print what the .output/.exit files say.
wrong=testing/differential/testdata/wrong_expected
check "expected files" 1 "FAIL wrong
  [interpreter] differs from the expected files
    output differs from the expected file:
      --- wrong.output
      +++ wrong stdout+stderr [interpreter]
      @@ -1,1 +1,1 @@
      -expected
      +actual
    command: $launcher --engine.Compilation=false $wrong/wrong.fake
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=plain -- "$wrong"/*

# --jobs only changes the speed: the report is the same.
serial=$(run --launcher="$launcher" --extension=fake --jobs=1 --mode=a:--fail \
  --mode=b:--broken_stdout -- "${all[@]}")
parallel=$(run --launcher="$launcher" --extension=fake --jobs=2 --mode=a:--fail \
  --mode=b:--broken_stdout -- "${all[@]}")
[[ "$serial" == "$parallel" ]] || fail "jobs: --jobs=1 and --jobs=2 reports differ"
[[ "$serial" == *"3 passed, 3 failed"* ]] || fail "jobs: unexpected summary: $serial"

# --shard=I/N takes every N-th matching program: the shards partition them.
shard0=$(run --launcher="$launcher" --extension=fake --mode=a --shard=0/2 -- "${all[@]}" |
  grep '^PASS' | tr '\n' ' ')
shard1=$(run --launcher="$launcher" --extension=fake --mode=a --shard=1/2 -- "${all[@]}" |
  grep '^PASS' | tr '\n' ' ')
[[ "$shard0" == "PASS agree PASS status_differs PASS stdout_differs " ]] ||
  fail "shard 0/2: $shard0"
[[ "$shard1" == "PASS slow PASS stdin PASS timing " ]] || fail "shard 1/2: $shard1"
check "empty shard" 0 "0 passed, 0 failed (0 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=a --shard=1/2 --filter=agree -- "${all[@]}"

# Compiled modes: a run whose output agrees with the interpreter still fails
# when its compilation statistics show it compiled nothing that was due (a
# silent fall-back to the interpreter), or a compiler failure that no
# PROGRAM:MODE allowance covers. With background compilation runs are judged
# together: some run of the mode must have compiled.
keep_compilation_line=1
check "silent fall-back to the interpreter" 1 "PASS background
PASS compiler_failure
FAIL compiles
  [silent] compiled mode check failed (flags: --x)
    nothing was compiled: 2 guest call target(s) reached the compilation threshold, 0 compilations succeeded (0 failed): this mode ran in the interpreter
    compilation statistics: successful 0, failed 0, recompilation limits 0, deopts 0, invalidations 0; guest call targets executed 0, due for compilation 2
    command: $launcher --x $compiled/compiles.fake
programs that compiled code / had call targets due, per mode: good 2/3, silent 1/3
2 passed, 1 failed (3 programs x 2 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=good:--compile --mode=silent:--x \
  -- "$compiled"/*

check "compiler failure" 1 "FAIL compiler_failure
  [broken] compiled mode check failed (flags: --compile --break)
    1 compilation(s) failed permanently (\"opt failed\"): the compiler could not compile code this program ran (--engine.TraceCompilation prints the reasons)
    compilation statistics: successful 1, failed 1, recompilation limits 0, deopts 0, invalidations 0; guest call targets executed 0, due for compilation 2
    command: $launcher --compile --break $compiled/compiler_failure.fake
programs that compiled code / had call targets due, per mode: broken 1/1
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=broken:--compile --mode=broken:--break \
  --filter=compiler_failure -- "$compiled"/*

check "allowed compiler failure" 0 "PASS compiler_failure
  [good] allowed to fail compilation, but no compilation failed: remove the allowance
programs that compiled code / had call targets due, per mode: good 1/1, broken 1/1
1 passed, 0 failed (1 programs x 2 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=good:--compile --mode=broken:--compile \
  --mode=broken:--break --allow_compilation_failure=compiler_failure:broken \
  --allow_compilation_failure=compiler_failure:good --filter=compiler_failure -- "$compiled"/*

check "background: nothing compiled in any program" 1 "PASS background
programs that compiled code / had call targets due, per mode: bg 0/1
FAIL [bg] nothing was compiled in any program: 1 program(s) had guest call targets due for compilation, none compiled anything
1 passed, 0 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=bg --filter=background -- "$compiled"/*

# A mode's run that writes no statistics fails.
check "no statistics" 1 "FAIL compiles
  [plain] compiled mode check failed (flags: --compile --no_statistics)
    no compilation statistics: the launcher did not write the file named by --engine.CompilationStatisticsFile=... (a Morel engine writes it when it closes)
    command: $launcher --compile --no_statistics $compiled/compiles.fake
programs that compiled code / had call targets due, per mode: plain 0/0
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$launcher" --extension=fake --mode=plain:--compile --mode=plain:--no_statistics \
  --filter=compiles -- "$compiled"/*
keep_compilation_line=0

# A launcher that cannot be executed fails every run, with the reason.
check "bad launcher" 1 "FAIL agree
  [interpreter] cannot execute $TEST_TMPDIR/no_such_launcher: No such file or directory
0 passed, 1 failed (1 programs x 1 modes + interpreter)" -- \
  --launcher="$TEST_TMPDIR/no_such_launcher" --extension=fake --mode=a --filter=agree \
  -- "${all[@]}"

# Usage errors: exit status 2 and a one-line reason.
usage() {  # usage <want message> -- runner args...
  local want=$1 out status
  shift 2
  out=$("${runner[@]}" "$@" 2>&1 >/dev/null)
  status=$?
  out=${out%%$'\n'*}
  [[ $status -eq 2 ]] || fail "usage '$*': exit status $status, want 2"
  [[ "$out" == "differential_runner: $want" ]] || fail "usage '$*': message '$out', want '$want'"
}
usage "--launcher is required" -- --mode=a "${all[@]}"
usage "at least one --mode is required" -- --launcher="$launcher" "${all[@]}"
usage "mode 'interpreter' has the baseline's name" -- --launcher="$launcher" \
  --mode=interpreter "${all[@]}"
usage "--mode=a b: the name must be letters, digits, '_', '-' or '.' (then ':' and one flag)" -- \
  --launcher="$launcher" "--mode=a b" "${all[@]}"
usage "--mode=a:: empty flag after ':'" -- --launcher="$launcher" --mode=a: "${all[@]}"
usage "no *.fake programs among the 1 files given" -- --launcher="$launcher" --mode=a \
  --extension=fake "$programs/stdin.input"
usage "no program matches --filter=nothing" -- --launcher="$launcher" --mode=a \
  --extension=fake --filter=nothing "${all[@]}"
usage "--exclude=agree:b names no mode" -- --launcher="$launcher" --mode=a --extension=fake \
  --exclude=agree:b "${all[@]}"
usage "--exclude=nope:a names no program" -- --launcher="$launcher" --mode=a --extension=fake \
  --exclude=nope:a "${all[@]}"
usage "--allow_compilation_failure=agree:b names no mode" -- --launcher="$launcher" --mode=a \
  --extension=fake --allow_compilation_failure=agree:b "${all[@]}"
usage "--allow_compilation_failure=nope:a names no program" -- --launcher="$launcher" \
  --mode=a --extension=fake --allow_compilation_failure=nope:a "${all[@]}"
usage "--allow_compilation_failure: expected PROGRAM:MODE, got 'agree'" -- \
  --launcher="$launcher" --mode=a --extension=fake --allow_compilation_failure=agree "${all[@]}"
usage "--shard: expected I/N with 0 <= I < N, got '2/2'" -- --launcher="$launcher" --mode=a \
  --extension=fake --shard=2/2 "${all[@]}"
usage "--jobs: expected a positive integer, got '0'" -- --launcher="$launcher" --mode=a \
  --jobs=0 "${all[@]}"
out=$("${runner[@]}" --launcher="$launcher" --mode=a "--mask=(" "${all[@]}" 2>&1 >/dev/null)
status=$?
[[ $status -eq 2 ]] || fail "bad mask: exit status $status, want 2"
# (the reason after the prefix is the regex library's wording)
[[ "$out" == "differential_runner: --mask=(: not a regular expression ("* ]] ||
  fail "bad mask: message '$out'"
usage "unknown argument '--bogus'" -- --launcher="$launcher" --mode=a --bogus "${all[@]}"
usage "no such program file $programs/missing.fake" -- --launcher="$launcher" --mode=a \
  --extension=fake "$programs/missing.fake"

if [[ $failures -ne 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "all checks passed"
