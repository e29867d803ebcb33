#!/usr/bin/env bash
# Loop locals that hold a value when the loop starts and get a new record in
# every iteration allocate nothing per iteration in compiled code
# (engine/opt/escape_analysis.h: the header object stands for the entry
# value until the loop assigns the local): run()'s loop, whose local starts
# as the caller's record and gets records with five properties (an object
# and its out-of-line storage), and main()'s loop, entered once and
# compiled by OSR with the interpreter's record in the local. Measured from outside:
# the heap's allocated bytes (--engine.PrintHeapStatistics) grow by less
# than a word per extra iteration of either loop (an object is 80 bytes).
# Compiled in the foreground, on each backend.
# Usage: loop_local_allocation_test.sh <sl launcher>
set -u
sl=$(realpath "$1")
# Under --config=a64 the launcher runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
sl=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$sl")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# program <calls> <iterations per call> <osr iterations>
program() {
  cat <<SL
function run(n, first) {
  p = first;
  i = 0;
  s = 0;
  while (i < n) {
    p = new();
    p.x = i;
    p.y = i + 1;
    p.z = i + 2;
    p.u = i + 3;
    p.v = i + 4;
    s = s + p.x + p.v;
    i = i + 1;
  }
  h = new();
  h.p = p;
  h.s = s;
  return h;
}
function main() {
  first = new();
  first.x = 1;
  j = 0;
  t = 0;
  while (j < $1) {
    t = t + run($2, first).s;
    j = j + 1;
  }
  q = first;
  i = 0;
  s = 0;
  while (i < $3) {
    q = new();
    q.x = i;
    s = s + q.x;
    i = i + 1;
  }
  println(t + s + q.x);
}
SL
}

# allocated <backend> <calls> <iterations per call> <osr iterations>: the
# heap's allocated bytes.
allocated() {
  program "$2" "$3" "$4" >"$dir/p.sl"
  "${sl[@]}" --engine.Backend="$1" --engine.BackgroundCompilation=false \
    --engine.PrintHeapStatistics "$dir/p.sl" 2>&1 >/dev/null |
    sed -n 's/.*allocated_bytes=\([0-9]*\).*/\1/p'
}

backends=(ir_interpreter)
[[ "$(uname -m)" == x86_64 && -z "${MOREL_EMULATOR:-}" ]] && backends+=(x86_64)
for backend in "${backends[@]}"; do
  base=$(allocated "$backend" 20000 40 300000)
  longer=$(allocated "$backend" 20000 80 300000)
  osr=$(allocated "$backend" 20000 40 600000)
  [[ -n "$base" && -n "$longer" && -n "$osr" ]] || { fail "$backend: no heap statistics"; continue; }
  # 40 more iterations in each of 20000 calls, nearly all compiled.
  in_run=$(((longer - base) / (20000 * 40)))
  ((in_run < 8)) || fail "$backend: run()'s loop allocates $in_run bytes per iteration"
  in_main=$(((osr - base) / 300000))
  ((in_main < 8)) || fail "$backend: main's OSR loop allocates $in_main bytes per iteration"
  echo "$backend: bytes per iteration: run() $in_run, main's OSR loop $in_main"
done
((failures == 0)) || exit 1
echo PASS
