#!/usr/bin/env bash
# Bytecode OSR on the real launcher (--sl.UseBytecode=true): a loop of a
# bytecode function that runs long in one activation is compiled from its
# header (a `<function><OSR@bci>` target) and the rest of the function runs
# in that code, with the right result; the threshold counts exactly, across
# the function's activations; OSR off means no OSR target. Usage: bytecode_osr_test.sh <sl launcher>
set -u
sl=$1
# Under --config=a64 the launcher runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
sl=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$sl")

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
dir="${TEST_TMPDIR:-/tmp}/bytecode_osr"
rm -rf "$dir" && mkdir -p "$dir"

# Truffle's TestOSR.sl, and nested loops with a call (OSR code keeps the
# frame current around it) whose inner header is the first OSR entry.
cat > "$dir/long.sl" <<'SL'
function main() {
  i = 0;
  sum = 0;
  while (i < 300000) {
    sum = sum + i;
    i = i + 1;
  }
  return sum;
}
SL
cat > "$dir/nested.sl" <<'SL'
function add(a, b) { return a + b; }
function main() {
  i = 0;
  sum = 0;
  while (i < 1000) {
    j = 0;
    while (j < 100) { sum = add(sum, j); j = j + 1; }
    i = i + 1;
  }
  return sum;
}
SL
# A loop of n iterations takes n back edges. The count is the function's,
# across its activations (Truffle's BytecodeOSRMetadata): 1000 + 1047 back
# edges stay below 2048; one more reaches it.
count_sl='function count(n) {
  i = 0;
  while (i < n) { i = i + 1; }
  return i;
}'
printf '%s\n%s\n' "$count_sl" \
  'function main() { println(count(1000)); println(count(1047)); }' > "$dir/below.sl"
printf '%s\n%s\n' "$count_sl" \
  'function main() { println(count(1000)); println(count(1047)); println(count(1)); }' \
  > "$dir/exact.sl"

base=(--sl.UseBytecode=true --engine.BackgroundCompilation=false --engine.TraceCompilation)

# check <name> <program> <expected stdout> <expected count of OSR "opt done"
# lines> <flags...>
check() {
  local name=$1 program=$2 expected=$3 osr_done=$4
  shift 4
  local out err
  out=$("${sl[@]}" "${base[@]}" "$@" "$dir/$program" 2>"$dir/$name.err")
  err=$(cat "$dir/$name.err")
  [[ "$out" == "$expected" ]] || fail "$name: printed '$out', expected '$expected'"
  local done
  done=$(grep -cE '^\[engine\] opt done +engine=[0-9]+ +id=[0-9]+ +[a-z]+<OSR@[0-9]+>' \
    "$dir/$name.err")
  if [[ "$osr_done" == "+" ]]; then
    [[ "$done" -ge 1 ]] || fail "$name: no bytecode OSR compilation: $err"
  else
    [[ "$done" -eq "$osr_done" ]] ||
      fail "$name: $done bytecode OSR compilations, expected $osr_done: $err"
  fi
  if grep -q 'opt failed' "$dir/$name.err"; then fail "$name: $err"; fi
}

check always long.sl 44999850000 1 --engine.AlwaysOSR
grep -q 'opt done.*main<OSR@[0-9]*>' "$dir/always.err" || fail "always: no main<OSR@...>"
check ir_interpreter long.sl 44999850000 1 --engine.AlwaysOSR --engine.Backend=ir_interpreter
# The default OSRCompilationThreshold (100352 back edges): once, then the
# code runs the rest of main.
check default long.sl 44999850000 1
check nested nested.sl 4950000 + --engine.AlwaysOSR
# At exactly the threshold (Truffle's count >= osrThreshold), not below;
# count itself is not compiled by its calls and loops meanwhile.
exact_flags=(--engine.OSRCompilationThreshold=2048 --engine.FirstTierCompilationThreshold=100000000
  --engine.LastTierCompilationThreshold=100000000)
check below below.sl $'1000\n1047' 0 "${exact_flags[@]}"
check exact exact.sl $'1000\n1047\n1' 1 "${exact_flags[@]}"
grep -q 'opt done.*count<OSR@[0-9]*>' "$dir/exact.err" || fail "exact: no count<OSR@...>"
check off long.sl 44999850000 0 --engine.AlwaysOSR --engine.OSR=false

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
