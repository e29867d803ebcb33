#!/usr/bin/env bash
# Native calls with any number of arguments and the prologue stack check
# (issue #5): hot SL functions with 3, 5 and 7 parameters, and their
# callers passing 0..8 arguments, compile to machine code ("opt done", never
# "opt failed") and print what the interpreter prints; recursion far deeper
# than the guest stack, compiled before its first call, reports the
# interpreter's stack-overflow error.
set -u
sl=$1 calls=$2 calls_expected=$3 overflow=$4 overflow_expected=$5
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

native=(--engine.Backend=x86_64 --engine.BackgroundCompilation=false --engine.TraceCompilation)

# The calls are the subject: without inlining they stay native calls (with
# it, show() is inlined into counts() and its argument passing disappears).
out=$("$sl" "${native[@]}" --engine.Inlining=false "$calls" 2>trace)
[[ "$out" == "$(cat "$calls_expected")" ]] || fail "output of $calls differs: $out"
if grep -q "opt failed" trace; then fail "a compilation failed:"; cat trace; fi
for f in weigh3 mix5 rotate7 show counts; do
  grep -q "opt done .* $f  .*CodeSize *[1-9]" trace || { fail "$f was not compiled:"; cat trace; }
done

# The same program with inlining (one tier: the last, which inlines): same
# output, and inlined calls.
out=$("$sl" "${native[@]}" --engine.MultiTier=false "$calls" 2>trace)
[[ "$out" == "$(cat "$calls_expected")" ]] || fail "output of $calls with inlining differs: $out"
grep -q "opt done .* counts  .*Inlined *[1-9][0-9]*Y" trace || { fail "counts inlined nothing:"; cat trace; }

for mode in "" "--engine.DeoptEveryN=3"; do
  out=$("$sl" "${native[@]}" --engine.CompileImmediately $mode "$overflow" 2>&1)
  status=$?
  [[ "$(grep -v '^\[engine\]' <<<"$out")" == "$(cat "$overflow_expected")" ]] ||
    fail "output of $overflow ($mode) differs: $out"
  [[ $status -eq 1 ]] || fail "exit status of $overflow ($mode): $status"
  # (Under deopt stress, deopt-cycle detection may give up on a target.)
  [[ -z "$mode" ]] && grep -q "opt failed" <<<"$out" && fail "a compilation failed: $out"
  grep -q "opt done .* depth  " <<<"$out" || fail "depth was not compiled: $out"
done

[[ $failures -eq 0 ]] && echo "all checks passed"
exit $failures
