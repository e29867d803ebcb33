#!/usr/bin/env bash
# No SL construct bails out of compilation (issue #6): every program given is
# run with compilation traced, twice -- every function compiled before its
# first call (the last tier), and compiled after a few calls with
# interpreter profiles (the first tier, then the last) -- and
# any "opt failed" line fails the test, except those the allow-list below
# explains. Usage: no_bailout_test.sh <sl launcher> <program.sl>...
# (a program's <name>.input, if present, is its stdin).
set -u
sl=$1
# Under --config=a64 the launcher runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
sl=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$sl")
shift

# Allowed failure reasons, one extended regex each, with why. None: calls
# of builtins that inspect their caller's frame compile too -- stacktrace
# reads compiled frames, and compiled code transfers to the interpreter
# before a call of helloEqualsWorld, which writes its caller's frame,
# keeping the code, so neither a bailout nor a deopt cycle results.
allowed=()

modes=(
  "--engine.CompileImmediately"
  "--engine.FirstTierCompilationThreshold=3 --engine.LastTierCompilationThreshold=20"
)

trace=$(mktemp "${TEST_TMPDIR:-/tmp}/no_bailout.XXXXXX")
trap 'rm -f "$trace"' EXIT

failures=0
compiled=0
programs=0
for program in "$@"; do
  [[ "$program" == *.sl ]] || continue
  programs=$((programs + 1))
  input=/dev/null
  [[ -f "${program%.sl}.input" ]] && input="${program%.sl}.input"
  for mode in "${modes[@]}"; do
    # shellcheck disable=SC2086  # a mode is several words
    "${sl[@]}" --engine.TraceCompilation --engine.BackgroundCompilation=false $mode \
        "$program" <"$input" >/dev/null 2>"$trace"
    compiled=$((compiled + $(grep -c "opt done" "$trace")))
    while IFS= read -r line; do
      reason=${line#*Reason: }
      reason=${reason%%|UTC*}
      ok=0
      for pattern in ${allowed[@]+"${allowed[@]}"}; do
        [[ "$reason" =~ $pattern ]] && ok=1
      done
      if [[ $ok -eq 0 ]]; then
        echo "FAIL: $(basename "$program") [$mode]: $reason"
        failures=$((failures + 1))
      fi
    done < <(grep "opt failed" "$trace")
  done
done

# Not vacuous: the programs ran and code was compiled and installed.
if [[ $programs -eq 0 || $compiled -eq 0 ]]; then
  echo "FAIL: $programs programs, $compiled compilations: nothing was checked"
  failures=$((failures + 1))
fi
[[ $failures -eq 0 ]] && echo "$programs programs, $compiled compilations, no bailouts"
exit $((failures > 0))
