#!/usr/bin/env bash
# Self-test of conformance_runner with the fake launcher (testdata/): the
# report for failing programs (diff, exit status mismatch, timeout, missing
# .output), the runner's own exit status, --filter, --bless and usage errors.
set -u
base="$TEST_SRCDIR/morel/testing/conformance"
runner="$base/conformance_runner"
launcher="$base/fake_launcher"
passing="$base/testdata/passing"
failing="$base/testdata/failing"
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
  "$runner" --launcher="$launcher" --tests="$passing" --extension=fake --launcher_arg=--greeting=hi

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
  "$runner" --launcher="$launcher" --tests="$failing" --extension=fake --timeout_seconds=1

# The timeout really kills the program (it sleeps 30 s).
start=$SECONDS
"$runner" --launcher="$launcher" --tests="$failing" --extension=fake --timeout_seconds=1 \
  --filter=timeout >/dev/null
(( SECONDS - start < 10 )) || fail "timeout: the runner took $((SECONDS - start)) s"

check "filter" 0 "PASS exit_status
1 passed, 0 failed" -- \
  "$runner" --launcher="$launcher" --tests="$passing" --extension=fake --filter=exit

# Launcher arguments are passed before the program file, in order.
check "launcher args" 1 "FAIL launcher_args
    output differs (expected vs actual stdout+stderr):
    --- launcher_args.output
    +++ launcher_args (actual)
    @@ -1,1 +1,1 @@
    -args: --greeting=hi
    +args: --a --b=c
0 passed, 1 failed" -- \
  "$runner" --launcher="$launcher" --tests="$passing" --extension=fake --filter=launcher_args \
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
0 passed, 1 failed" -- "$runner" --launcher="$launcher" --tests="$work" --extension=fake

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
  "$runner" --launcher="$launcher" --tests="$bless" --extension=fake --timeout_seconds=1 --bless
[[ "$(cat "$bless/wrong_status.exit")" == 4 ]] || fail "bless: wrong_status.exit is not 4"
[[ ! -e "$bless/a_pass.exit" ]] || fail "bless: a_pass.exit was created"
[[ "$(cat "$bless/missing_output.output")" == something ]] || fail "bless: missing_output.output"
rm "$bless"/timeout.*
check "after bless" 0 "PASS a_pass
PASS missing_output
PASS wrong_output
PASS wrong_status
4 passed, 0 failed" -- "$runner" --launcher="$launcher" --tests="$bless" --extension=fake

# A launcher that cannot be executed fails every program.
check "bad launcher" 1 "FAIL hello
    cannot execute $TEST_TMPDIR/no_such_launcher: No such file or directory
0 passed, 1 failed" -- \
  "$runner" --launcher="$TEST_TMPDIR/no_such_launcher" --tests="$passing" --extension=fake \
  --filter=hello

# Usage errors: exit status 2.
for args in "" "--launcher=$launcher" "--tests=$passing" \
    "--launcher=$launcher --tests=$TEST_TMPDIR/no_such_dir" \
    "--launcher=$launcher --tests=$passing --extension=fake --filter=nothing_matches" \
    "--launcher=$launcher --tests=$passing" \
    "--launcher=$launcher --tests=$passing --timeout_seconds=0" \
    "--launcher=$launcher --tests=$passing --bogus"; do
  # shellcheck disable=SC2086
  "$runner" $args >/dev/null 2>&1
  status=$?
  [[ $status -eq 2 ]] || fail "usage error '$args': exit status $status, want 2"
done

if [[ $failures -ne 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "all checks passed"
