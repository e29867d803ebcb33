#!/bin/bash
# report_test: the report on GCC's real records of a fixture whose inlining
# is known (testing/host_inlining/testdata/fixture.cc): the inlined call with
# GCC's figures, the noinline call as a CUTOFF with its reason.
set -u
report=$1 fixture=$2 spec=$3
records=$(mktemp -d)
trap 'rm -rf "$records"' EXIT
g++ -O2 -c "$fixture" -o /dev/null -fopt-info-inline-all="$records/fixture.cc.inline.txt" || {
  echo "FAIL: g++ did not compile the fixture"; exit 1; }
out=$(python3 "$report" --records "$records" --sources fixture.cc --spec "$spec" \
      --workspace "$PWD" --all 2>&1)
status=$?
failures=0
expect() {
  grep -qE "$1" <<<"$out" || { echo "FAIL: no line matching /$1/"; failures=$((failures + 1)); }
}
[[ $status -eq 0 ]] || { echo "FAIL: status $status"; failures=$((failures + 1)); }
expect "^straight_line  morel_host_root_straight_line\(int\)$"
expect "^  INLINE small\(int\) \[early inliner\]  .*fixture.cc:9:"
expect "^calls_out_of_line  morel_host_root_calls_out_of_line\(int\)$"
expect "^  CUTOFF kept_out_of_line\(int\) \[reason boundary or cutoff \(noinline\)\]  .*fixture.cc:11:"
[[ $failures -eq 0 ]] && echo "all checks passed" || echo "$out"
exit $failures
