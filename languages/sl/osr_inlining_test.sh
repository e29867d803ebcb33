#!/usr/bin/env bash
# OSR code inlines (engine/pe/README.md): golden programs whose loop in main
# is OSR-compiled with its callees inlined, on each backend, in the
# foreground so that the compilations do not depend on timing. Each prints
# what the interpreter prints (its .output), and the OSR compilation inlined
# at least one call ("Inlined NY", N > 0: a compilation that silently
# inlines nothing fails). OsrInlinedDeopt must deoptimize its OSR code (a
# speculation of an inlined callee fails), and OsrInlinedStacktrace calls
# stacktrace() from a callee inlined there (its frames are listed once).
# Usage: osr_inlining_test.sh <sl launcher> <Name.sl Name.output>...
set -u
sl=$(realpath "$1")
shift
# Under --config=a64 the launcher runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
sl=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$sl")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

backends=(ir_interpreter)
[[ "$(uname -m)" == x86_64 && -z "${MOREL_EMULATOR:-}" ]] && backends+=(x86_64)
while (($# >= 2)); do
  program=$1 expected=$2
  shift 2
  name=$(basename "$program" .sl)
  for backend in "${backends[@]}"; do
    out=$("${sl[@]}" --engine.Backend="$backend" --engine.BackgroundCompilation=false \
      --engine.TraceCompilation "$program" 2>trace)
    [[ "$out" == "$(cat "$expected")" ]] || fail "$name on $backend prints: $out"
    grep -q "opt failed" trace && fail "$name on $backend: a compilation failed: $(grep 'opt failed' trace)"
    grep -q "opt done .*<OSR>.*|Inlined *[1-9][0-9]*Y" trace ||
      fail "$name on $backend: the OSR compilation inlined nothing: $(grep 'opt done' trace)"
    if [[ $name == OsrInlinedDeopt ]]; then
      grep -q "opt deopt .*<OSR>" trace ||
        fail "$name on $backend: the OSR code did not deoptimize: $(grep 'opt ' trace)"
    fi
  done
done
((failures == 0)) || exit 1
echo PASS
