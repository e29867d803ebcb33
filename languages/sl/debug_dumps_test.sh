#!/usr/bin/env bash
# The debug dumps of the compiler (engine_config.proto, category DEBUG):
# --engine.DumpIR=pe,dce,asm prints the partial evaluator's IR, the IR after
# dce and the native tier's machine code of each compiled function to
# stderr, without changing the program's output; --engine.PerfMap appends
# one "<start> <size> <name>" line per installed code to /tmp/perf-<pid>.map.
set -u
sl=$1 program=$2 expected=$3
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
native=(--engine.Backend=x86_64 --engine.BackgroundCompilation=false --engine.CompileImmediately)

out=$("$sl" "${native[@]}" --engine.DumpIR=pe,dce,asm "$program" 2>dumps)
[[ "$out" == "$(cat "$expected")" ]] || fail "output differs with dumps on: $out"
grep -q '^;; IR after pe$' dumps || fail "no 'IR after pe' dump"
grep -q '^;; IR after dce' dumps || fail "no 'IR after dce' dump"
grep -q '^;; machine code of fib$' dumps || fail "no machine code of fib"
# An instruction line: address, then AT&T text (the prologue pushes rbp).
grep -qE '^  0x[0-9a-f]+: pushq +%rbp$' dumps || fail "no disassembled instruction"
[[ $failures -eq 0 ]] || head -40 dumps

"$sl" "${native[@]}" --engine.PerfMap=true "$program" >/dev/null &
pid=$!
wait $pid
map=/tmp/perf-$pid.map
if [[ -f $map ]]; then
  grep -qE '^[0-9a-f]+ [0-9a-f]+ fib$' "$map" || { fail "no fib line in $map:"; cat "$map"; }
  rm -f "$map"
else
  fail "no $map"
fi

out=$("$sl" --engine.DumpIR=frobnicate "$program" 2>&1)
grep -q "option engine.DumpIR: unknown pass 'frobnicate' (accepts pass names, 'pe', 'asm', 'all'); passes: canonicalize, " <<<"$out" || fail "bad pass name not reported: $out"

[[ $failures -eq 0 ]] && echo "all checks passed"
exit $failures
