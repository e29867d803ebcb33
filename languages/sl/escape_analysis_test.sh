#!/usr/bin/env bash
# Escape analysis on SL (engine/opt/escape_analysis.h): compiled with the
# native tier, work() in VirtualObjectsDeopt.sl inlines point() and add(),
# so partial evaluation emits an `alloc` for each of its three new()s;
# after partial_escape none is left, and the program still prints exactly
# its golden output (it deoptimizes with the objects virtual). With
# --engine.DisablePasses=partial_escape the allocations stay. A failure
# here means objects are allocated where they need not be.
#
# VirtualObjectsLoopLocal.sl: walk() assigns a new record to p in every
# iteration of its loop, p unassigned before it. The loop header names the
# previous iteration's record only for deoptimization: after
# partial_escape walk() allocates nothing (in its compilations before the
# deoptimization that reads p), and the program prints its golden output
# and exits with its golden status.
set -u
sl=$1 program=$2 expected=$3 loop_program=$4 loop_expected=$5 loop_exit=$6
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
native=(--engine.Backend=x86_64 --engine.BackgroundCompilation=false)
source "$TEST_SRCDIR/${TEST_WORKSPACE:-morel}/languages/sl/ir_dumps.sh"
dumps=$(mktemp)
trap 'rm -f "$dumps"' EXIT

# allocs_after <pass> <dumps> <first pass> [<function> <min>]: the allocs
# after <pass> (one line "<pass> <allocs>" per dump, ir_dump_counts) in the
# first compilation of <function> (work) whose <first pass> dump has at
# least <min> (3) allocs: for work(), the one that inlined its callees (the
# first tier inlines nothing).
allocs_after() {
  ir_dumps "$2" "${4:-work}" | ir_dump_counts ' = alloc ' |
    awk -v want="$1" -v first="$3" -v min="${5:-3}" '
    $1 == first { found = ($2 >= min); if (want == first && found) { print $2; exit } next }
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

# walk(): its record per iteration is never allocated.
"$sl" "${native[@]}" --engine.DumpIR=pe,partial_escape "$loop_program" >/dev/null 2>"$dumps"
loop_stdout=$("$sl" "${native[@]}" "$loop_program" 2>&1)
loop_status=$?
[[ "$loop_stdout" == "$(cat "$loop_expected")" ]] || fail "walk output differs: $loop_stdout"
[[ "$loop_status" == "$(cat "$loop_exit")" ]] || fail "walk exit status $loop_status differs"
walk_pe=$(allocs_after pe "$dumps" pe walk 1)
walk_pea=$(allocs_after partial_escape "$dumps" pe walk 1)
[[ "$walk_pe" == "1" ]] || fail "expected 1 alloc in walk() after pe, found '${walk_pe}'"
[[ "$walk_pea" == "0" ]] || fail "expected no alloc in walk() after partial_escape, found '${walk_pea}'"
"$sl" "${native[@]}" --engine.DisablePasses=partial_escape --engine.DumpIR=pe,dce \
  "$loop_program" >/dev/null 2>"$dumps"
walk_kept=$(allocs_after dce "$dumps" pe walk 1)
[[ "$walk_kept" == "1" ]] || fail "expected walk()'s alloc to stay when disabled, found '${walk_kept}'"

[[ $failures -eq 0 ]] && echo "all checks passed (work(): $pe allocs after pe, $pea after partial_escape; walk(): $walk_pe, $walk_pea)"
exit $failures
