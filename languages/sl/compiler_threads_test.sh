#!/usr/bin/env bash
# Two compiler threads compiling mutually recursive functions at once, each
# inlining the other (issue #12): they lock their own trees and must never
# wait for each other's (PartialEvaluator::TryInline only tries a callee's
# lock). A deadlock showed as a hang in about one run in four; five runs of two kinds,
# each bounded by `timeout`.
set -u
sl=$1 program=$2
# Under --config=a64 the launcher runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
sl=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$sl")
expected=$("${sl[@]}" --engine.Compilation=false "$program")
for run in 1 2 3 4 5; do
  for flags in "" "--engine.MultiTier=false --engine.SingleTierCompilationThreshold=100"; do
    out=$(timeout 60 "${sl[@]}" --engine.CompilerThreads=2 $flags "$program")
    status=$?
    [[ $status -eq 124 ]] && { echo "FAIL: run $run ($flags) hung"; exit 1; }
    [[ $status -ne 0 || "$out" != "$expected" ]] && {
      echo "FAIL: run $run ($flags): status $status, output $out"; exit 1; }
  done
done
echo "PASS"
