#!/usr/bin/env bash
# End-to-end checks of the option errors a user sees: one line naming the
# problem on stderr, exit status 2; --help and a good configuration exit 0.
set -u
tool="$TEST_SRCDIR/morel/engine/config/morel_config"
failures=0

expect() {  # expect <status> <stderr substring> -- command...
  local want_status=$1 want_text=$2
  shift 3
  local err status
  err=$("$@" 2>&1 >/dev/null)
  status=$?
  if [[ $status -ne $want_status ]]; then
    echo "FAIL: '$*' exited $status, want $want_status (stderr: $err)"; failures=$((failures + 1))
  elif [[ -n "$want_text" && "$err" != *"$want_text"* ]]; then
    echo "FAIL: '$*' stderr '$err' lacks '$want_text'"; failures=$((failures + 1))
  elif [[ $want_status -ne 0 && $(printf '%s\n' "$err" | wc -l) -ne 1 ]]; then
    echo "FAIL: '$*' printed more than one line: $err"; failures=$((failures + 1))
  fi
}

expect 0 "" -- "$tool" --help
"$tool" --help | grep -q -- "--engine.SplittingMaxCalleeSize=<int32>  (default: 100)" ||
  { echo "FAIL: --help lacks SplittingMaxCalleeSize"; failures=$((failures + 1)); }

expect 2 "unknown option engine.SplitingGrowthLimit; did you mean engine.SplittingGrowthLimit?" -- \
  "$tool" --engine.SplitingGrowthLimit=2
expect 2 "option engine.SplittingGrowthLimit: value -1 is out of range (expected >= 0)" -- \
  "$tool" --engine.SplittingGrowthLimit=-1
expect 2 "option engine.CompilerThreads: invalid value 'many' (expected a 32-bit integer)" -- \
  "$tool" --engine.CompilerThreads=many

bad="$TEST_TMPDIR/bad.textproto"
printf 'compilation: false\nosr_compilation_threshold: "x"\n' > "$bad"
expect 2 "bad.textproto:2:" -- "$tool" "--engine.Config=$bad"
expect 2 "cannot read" -- "$tool" "--engine.Config=$TEST_TMPDIR/missing.textproto"
MOREL_OPTIONS="--engine.Bogus=1" expect 2 "MOREL_OPTIONS: unknown option engine.Bogus" -- "$tool"

good="$TEST_TMPDIR/good.textproto"
printf 'splitting_max_callee_size: 42\n' > "$good"
out=$(MOREL_OPTIONS="--engine.TraceSplitting" "$tool" "--engine.Config=$good" --engine.OSR=false)
for line in "engine.SplittingMaxCalleeSize = 42  (set)" "engine.TraceSplitting = true  (set)" \
            "engine.OSR = false  (set)" "engine.Inlining = true"; do
  [[ "$out" == *"$line"* ]] || { echo "FAIL: output lacks '$line'"; failures=$((failures + 1)); }
done

if [[ $failures -ne 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "all checks passed"
