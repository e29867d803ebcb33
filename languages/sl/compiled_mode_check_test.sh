#!/usr/bin/env bash
# The compiled-mode check bites on the real launcher: the conformance and
# differential runners, given a "compiled mode" in which compilation silently
# does not happen or fails, report the programs that should have compiled and
# exit 1, although every output is right. The same programs in a working
# compiled mode pass (so the failures come from the check).
# Usage: compiled_mode_check_test.sh <sl> <sl without backends>
#   <conformance_runner> <differential_runner>
#   <program.sl and its .output files...>
set -u
sl=$1 sl_without_backends=$2 conformance=$3 differential=$4
shift 4
files=("$@")

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The conformance runner reads a directory: the given programs only.
tests="$TEST_TMPDIR/programs"
rm -rf "$tests" && mkdir -p "$tests"
for file in "${files[@]}"; do cp -L "$file" "$tests/"; done

compiled_flags=(--engine.CompileImmediately --engine.BackgroundCompilation=false)

# conformance_run <mode name> <flags...> [-- <runner flags...>]: the output
# in $out, the exit status in $status
conformance_run() {
  local name=$1 args=() launcher=${launcher:-$sl}
  shift
  while [[ $# -gt 0 && $1 != "--" ]]; do args+=("--launcher_arg=$1"); shift; done
  [[ $# -gt 0 ]] && shift  # the "--"
  out=$("$conformance" --launcher="$launcher" --tests="$tests" --compiled_mode="$name" "${args[@]}" \
    "$@" 2>&1)
  status=$?
}

differential_run() {  # differential_run <mode name> <flags...>
  local name=$1 args=() launcher=${launcher:-$sl}
  shift
  for flag in "$@"; do args+=("--mode=$name:$flag"); done
  out=$("$differential" --launcher="$launcher" "${args[@]}" -- "${files[@]}" 2>&1)
  status=$?
}

expect() {  # expect <what> <status> <substring>...
  local what=$1 want=$2
  shift 2
  [[ $status -eq $want ]] || { fail "$what: exit status $status, want $want"; echo "$out"; }
  for text in "$@"; do
    [[ "$out" == *"$text"* ]] || { fail "$what: no '$text' in:"; echo "$out"; }
  done
}

# Working compiled mode: everything passes and something compiled.
conformance_run compile_immediately "${compiled_flags[@]}"
expect "conformance, working mode" 0 "PASS FizzBuzz" "PASS ParseErrorElseIf" \
  "compiled mode compile_immediately: 2 of 3 programs compiled code, 2 had call targets due"
differential_run compile_immediately "${compiled_flags[@]}"
expect "differential, working mode" 0 "3 passed, 0 failed" \
  "per mode: compile_immediately 2/2"

# Silent fall-backs: nothing is compiled, nothing reports a failure, the
# output is the interpreter's. A program that ran nothing (a parse error)
# still passes.
for broken in --engine.CompileOnly=~ --engine.Compilation=false --engine.Backend=none; do
  conformance_run silent "${compiled_flags[@]}" "$broken"
  expect "conformance, $broken" 1 "FAIL FizzBuzz" "FAIL Recursion" "PASS ParseErrorElseIf" \
    "[silent] nothing was compiled: 2 guest call target(s) reached the compilation threshold, 0 compilations succeeded (0 failed): this mode ran in the interpreter" \
    "FAIL [silent] nothing was compiled in any program: 2 program(s)" "1 passed, 2 failed"
  differential_run silent "${compiled_flags[@]}" "$broken"
  expect "differential, $broken" 1 "FAIL FizzBuzz" "FAIL Recursion" "PASS ParseErrorElseIf" \
    "[silent] compiled mode check failed" "nothing was compiled: 2 guest call target(s)" \
    "FAIL [silent] nothing was compiled in any program" "1 passed, 2 failed"
done

# Every compilation fails (the host's backend is not linked into this
# launcher) — silently, by default (CompilationFailureAction=Silent).
launcher=$sl_without_backends conformance_run failing "${compiled_flags[@]}"
expect "conformance, failing compiler" 1 \
  "[failing] 2 compilation(s) failed permanently (\"opt failed\")" \
  "[failing] nothing was compiled: 2 guest call target(s) reached the compilation threshold, 0 compilations succeeded (2 failed)"
launcher=$sl_without_backends differential_run failing "${compiled_flags[@]}"
expect "differential, failing compiler" 1 "compilation(s) failed permanently" "1 passed, 2 failed"
# Allowed for one program: that one passes, the other still fails.
launcher=$sl_without_backends conformance_run failing "${compiled_flags[@]}" \
  -- --allow_compilation_failure=FizzBuzz
expect "conformance, one allowance" 1 "PASS FizzBuzz" "FAIL Recursion" "2 passed, 1 failed"

# A backend for another architecture is refused at engine start (exit
# status 2, naming the option), never a silent interpreter.
foreign=aarch64
[[ $(uname -m) == aarch64 || $(uname -m) == arm64 ]] && foreign=x86_64
"$sl" --engine.Backend=$foreign "${files[0]}" >/dev/null 2>"$TEST_TMPDIR/err"
status=$?
out=$(cat "$TEST_TMPDIR/err")
expect "--engine.Backend=$foreign" 2 "option engine.Backend: '$foreign' generates code that this"

# The recompilation policy giving up without forced deopts.
conformance_run limited "${compiled_flags[@]}" --engine.MaximumCompilations=0
expect "conformance, MaximumCompilations=0" 1 \
  "stopped being compiled by the recompilation policy (deopt cycle or MaximumCompilations) although no deoptimization was forced"

# With background compilation a short program may end before its
# compilations; the mode as a whole must still compile something.
conformance_run background --engine.CompileImmediately --engine.CompileOnly=~
expect "conformance, background" 1 "PASS FizzBuzz" "PASS Recursion" \
  "FAIL [background] nothing was compiled in any program: 2 program(s)"

if [[ $failures -ne 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "all checks passed"
