#!/usr/bin/env bash
# Escape analysis on SL (engine/opt/escape_analysis.h): compiled with the
# native tier, work() in VirtualObjectsDeopt.sl inlines point() and add(),
# so partial evaluation emits an `alloc` for each of its three new()s;
# after partial_escape none is left, and the program still prints exactly
# its golden output (it deoptimizes with the objects virtual). With
# --engine.DisablePasses=partial_escape the allocations stay. A failure
# here means objects are allocated where they need not be.
set -u
sl=$1 program=$2 expected=$3
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
native=(--engine.Backend=x86_64 --engine.BackgroundCompilation=false)
source "$TEST_SRCDIR/${TEST_WORKSPACE:-morel}/languages/sl/ir_dumps.sh"
dumps=$(mktemp)
trap 'rm -f "$dumps"' EXIT

# The allocs after `pass` (one line "<pass> <allocs>" per dump of work(),
# ir_dump_counts) in the first compilation of work() whose partial
# evaluation allocated at least 3 objects (the one that inlined its callees;
# the first tier inlines nothing).
allocs_after() {
  ir_dumps "$2" work | ir_dump_counts ' = alloc ' | awk -v want="$1" -v first="$3" '
    $1 == first { found = ($2 >= 3); if (want == first && found) { print $2; exit } next }
    found && $1 == want { print $2; exit }
  '
}

out=$("$sl" "${native[@]}" --engine.DumpIR=pe,partial_escape "$program" 2>"$dumps")
[[ "$out" == "$(cat "$expected")" ]] || fail "output differs: $out"
pe=$(allocs_after pe "$dumps" pe)
pea=$(allocs_after partial_escape "$dumps" pe)
[[ -n "$pe" && "$pe" -ge 3 ]] || fail "expected >= 3 allocs in work() after pe, found '${pe}'"
[[ "$pea" == "0" ]] || fail "expected no alloc in work() after partial_escape, found '${pea}'"

out=$("$sl" "${native[@]}" --engine.DisablePasses=partial_escape --engine.DumpIR=pe,dce "$program" 2>"$dumps")
[[ "$out" == "$(cat "$expected")" ]] || fail "output differs without escape analysis: $out"
kept=$(allocs_after dce "$dumps" pe)
[[ -n "$kept" && "$kept" -ge 3 ]] || fail "expected the allocs to stay when disabled, found '${kept}'"

[[ $failures -eq 0 ]] && echo "all checks passed (work(): $pe allocs after pe, $pea after partial_escape)"
exit $failures
