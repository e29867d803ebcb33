#!/bin/bash
# check_fast_paths_test: the checker fails on a call its spec does not allow
# (and names it) and on a frameless root that calls, and passes once the spec
# allows the call and asks no frameless code of it.
set -u
checker=$1 fails_spec=$2 passes_spec=$3 archive=$4
failures=0

out=$(python3 "$checker" "$fails_spec" "$archive" 2>&1)
status=$?
if [[ $status -ne 1 ]] || ! grep -q "NOT INLINED kept_out_of_line(int)" <<<"$out"; then
  echo "FAIL: a disallowed call passed (status $status):"; echo "$out"; failures=$((failures + 1))
fi
grep -q "NOT FRAMELESS: .*call" <<<"$out" ||
  { echo "FAIL: a frameless root that calls passed:"; echo "$out"; failures=$((failures + 1)); }
grep -q "^ok   straight_line: 0 child call(s), 0 boundary(ies)" <<<"$out" ||
  { echo "FAIL: the straight-line root was not reported ok:"; echo "$out"; failures=$((failures + 1)); }

out=$(python3 "$checker" "$passes_spec" "$archive" 2>&1)
status=$?
if [[ $status -ne 0 ]]; then
  echo "FAIL: an allowed call failed (status $status):"; echo "$out"; failures=$((failures + 1))
fi
grep -q "1 child call(s)" <<<"$out" ||
  { echo "FAIL: the call through a pointer was not counted as a child call:"; echo "$out"; failures=$((failures + 1)); }

[[ $failures -eq 0 ]] && echo "all checks passed"
exit $failures
