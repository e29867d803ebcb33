#!/usr/bin/env bash
# TraceInlining golden output (issue #12): the call trees of
# testdata/inlining_trace.sl's compilations, printed by
# --engine.TraceInliningDetails in the reference §2.7 format, with default
# budgets and with an inlining budget so small that expanded callees stay
# Expanded. Compiled in the foreground with one tier, so call counts (and
# frequencies) do not depend on timing. The IR node counts are partial
# evaluation's real output: a change to it changes them; re-bless with
#   MOREL_BLESS=1 bazel run //languages/sl:inlining_trace_test
# and review the diff.
set -u
sl=$(realpath "$1") program=$(realpath "$2") expected=$3
# Under --config=a64 the launcher runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
sl=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$sl")
common=(--engine.BackgroundCompilation=false --engine.MultiTier=false
        --engine.Backend=ir_interpreter --engine.TraceInliningDetails)

actual=$(
  for budget in default 150; do
    echo "== InliningInliningBudget=$budget"
    extra=()
    [[ $budget != default ]] && extra=(--engine.InliningInliningBudget=$budget)
    "${sl[@]}" "${common[@]}" "${extra[@]}" "$program" 2>&1 | grep '^\[engine\] ' | grep -v '^\[engine\] opt '
  done
)
if [[ -n "${MOREL_BLESS:-}" ]]; then
  target="${BUILD_WORKSPACE_DIRECTORY:?run with bazel run to bless}/languages/sl/testdata/inlining_trace.expected"
  printf '%s\n' "$actual" > "$target"
  echo "blessed $target"
  exit 0
fi
if ! diff -u "$expected" <(printf '%s\n' "$actual"); then
  echo "FAIL: TraceInlining output differs from $expected (see the diff above)"
  exit 1
fi
# Every state the program is meant to reach.
for state in Inlined Cutoff Expanded Removed Indirect BailedOut; do
  grep -q "^\[engine\] $state " <<<"$actual" || { echo "FAIL: no $state node"; exit 1; }
done
echo "PASS"
