#!/usr/bin/env bash
# heap_statistics_test.sh <sl launcher> <binarytrees.sl>
# --engine.PrintHeapStatistics on the SL launcher, as tools/bench/run.py
# reads it: one '[engine] heap ...' line on stderr at exit, whose figures are
# measured. binarytrees at depth 10 builds ~31 times the tree nodes of depth
# 6 (135854 against 4398), so it must report several times the bytes, and
# collections with a non-zero time. Without the option: no line. No timing
# is compared with a bound.
set -u

# Paths as Bazel passes them (runfiles-relative; the test runs from the
# runfiles root and never changes directory), like languages/sl's tests.
sl=$1 program=$2
tmp=${TEST_TMPDIR:-$(mktemp -d)}
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# binarytrees.sl with the first integer on its BENCH:SIZE line replaced.
sized() {
  local out="$tmp/binarytrees_$1.sl"
  sed "/BENCH:SIZE/s/[0-9][0-9]*/$1/" "$program" > "$out"
  printf '%s\n' "$out"
}

# field <line> <name> -> value
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

pattern='^\[engine\] heap allocated_bytes=[0-9]+ collections=[0-9]+ gc_ms=[0-9]+\.[0-9]{3} total_ms=[0-9]+\.[0-9]{3} gc_percent=[0-9]+\.[0-9]{2} heap_bytes=[0-9]+ free_bytes=[0-9]+ markers=[0-9]+ incremental=[01]$'

declare -A line
for depth in 6 10; do
  "$sl" --engine.PrintHeapStatistics=true "$(sized $depth)" > "$tmp/out_$depth" 2> "$tmp/err_$depth"
  status=$?
  [[ $status -eq 0 ]] || fail "depth $depth: exit status $status: $(tail -n 3 "$tmp/err_$depth")"
  grep -q '^checksum ' "$tmp/out_$depth" || fail "depth $depth: no checksum"
  count=$(grep -c '^\[engine\] heap ' "$tmp/err_$depth")
  [[ $count -eq 1 ]] || fail "depth $depth: $count heap lines on stderr, expected 1"
  line[$depth]=$(grep '^\[engine\] heap ' "$tmp/err_$depth" | head -n 1)
  echo "depth $depth: ${line[$depth]}"
  [[ ${line[$depth]} =~ $pattern ]] || fail "depth $depth: malformed line '${line[$depth]}'"
done

small=$(field "${line[6]}" allocated_bytes)
large=$(field "${line[10]}" allocated_bytes)
collections=$(field "${line[10]}" collections)
gc_ms=$(field "${line[10]}" gc_ms)
total_ms=$(field "${line[10]}" total_ms)
heap_bytes=$(field "${line[10]}" heap_bytes)
if [[ -n "$small" && -n "$large" ]]; then
  (( small > 100000 )) || fail "depth 6 allocated only $small bytes"
  (( large > 8 * small )) || fail "depth 10 allocated $large bytes, not 8 times depth 6's $small"
  (( large > 135854 * 16 )) || fail "depth 10 allocated $large bytes for 135854 tree nodes"
fi
[[ -n "$collections" ]] && { (( collections >= 1 )) || fail "depth 10: no collection"; }
[[ "$gc_ms" != "0.000" ]] || fail "depth 10: collections took no time"
[[ "$total_ms" != "0.000" ]] || fail "depth 10: no elapsed time"
[[ -n "$heap_bytes" ]] && { (( heap_bytes > 0 )) || fail "depth 10: empty heap"; }

"$sl" "$(sized 6)" > /dev/null 2> "$tmp/err_default"
if grep -q '^\[engine\] heap ' "$tmp/err_default"; then
  fail "a heap line without --engine.PrintHeapStatistics"
fi

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
