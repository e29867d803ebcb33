#!/usr/bin/env bash
# A launcher with no backend linked in compiles to machine code once the
# x86_64 backend is loaded as a plugin; without it, it stays correct in the
# interpreter and says why nothing compiled.
set -u
sl=$1 plugin=$2 program=$3 expected=$4
failures=0

out=$("$sl" "--engine.BackendPlugin=$PWD/$plugin" --engine.CompileImmediately --engine.BackgroundCompilation=false \
      --engine.TraceCompilation "$program" 2>trace)
[[ "$out" == "$(cat "$expected")" ]] || { echo "FAIL: output with the plugin differs"; failures=$((failures + 1)); }
grep -q "opt done .*CodeSize *[1-9]" trace || { echo "FAIL: no machine code installed:"; cat trace; failures=$((failures + 1)); }

out=$("$sl" --engine.CompileImmediately --engine.BackgroundCompilation=false --engine.TraceCompilation "$program" 2>trace)
[[ "$out" == "$(cat "$expected")" ]] || { echo "FAIL: output without the plugin differs"; failures=$((failures + 1)); }
grep -q "opt failed .*was support for it linked in" trace || { echo "FAIL: missing-backend reason not reported:"; cat trace; failures=$((failures + 1)); }

"$sl" --engine.BackendPlugin=/nonexistent.so "$program" >/dev/null 2>err
status=$?
[[ $status -eq 2 ]] && grep -q "option engine.BackendPlugin" err || { echo "FAIL: bad plugin path: status $status, $(cat err)"; failures=$((failures + 1)); }

[[ $failures -eq 0 ]] && echo "all checks passed"
exit $failures
