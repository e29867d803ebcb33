#!/usr/bin/env bash
# Compile-time evaluation of foldable runtime calls (CallFoldable,
# nodes/interpreter_context.h): compiled with the native tier, work() in
# FoldedStrings.sl inlines join() and same() with constant arguments, so
# partial evaluation computes their concatenations and comparisons while
# compiling (the constants reach work() through the inlined returns,
# PartialEvaluator::SingleResult): the compilation of work() that inlined
# them calls neither ConcatValues nor StringsEqual, and the program prints
# exactly its golden output (the interpreter's). Its first-tier compilation,
# which inlines nothing, still makes the calls. A failure here means
# constants are concatenated or compared at run time.
set -u
sl=$1 program=$2 expected=$3
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
source "$TEST_SRCDIR/${TEST_WORKSPACE:-morel}/languages/sl/ir_dumps.sh"
dumps=$(mktemp)
trap 'rm -f "$dumps"' EXIT

out=$("$sl" --engine.Backend=x86_64 --engine.BackgroundCompilation=false \
  --engine.DumpIR=pe "$program" 2>"$dumps")
[[ "$out" == "$(cat "$expected")" ]] || fail "output differs: $out"
# One "pe <calls>" line per compilation of work(), in order.
counts=$(ir_dumps "$dumps" work pe | ir_dump_counts 'call_runtime @morel::sl::(ConcatValues|StringsEqual)\(')
echo "ConcatValues/StringsEqual calls per compilation of work(): $(echo $counts)"
first=$(echo "$counts" | head -1 | awk '{print $2}')
last=$(echo "$counts" | tail -1 | awk '{print $2}')
[[ -n "$first" && "$first" -gt 0 ]] || fail "expected calls in work()'s first tier, found '${first}'"
[[ "$(echo "$counts" | wc -l)" -ge 2 ]] || fail "expected work() to be compiled twice: $counts"
[[ "$last" == "0" ]] || fail "expected no calls in work()'s last tier, found '${last}'"

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
