#!/usr/bin/env bash
# new() and cached property adds compile to plain IR (issue 13): the
# partial evaluator's IR of a function that makes an object holds an
# `alloc` and stores, and no runtime call for new() (InvokeBuiltin, the
# builtin's call), for an add whose slot exists or for the add that
# creates the out-of-line storage (an `alloc` too; AddPropertyWithShape is
# called only to grow it); escape analysis then removes the allocations of
# an object that does not escape. Checked on --engine.DumpIR=pe,dce (dce is the pipeline's last
# pass) of testdata/inline_objects.sl, run in the IR tier, whose output
# must not change. Usage: inline_objects_test.sh <sl> <program> <expected>
set -u
sl=$1 program=$2 expected=$3
# Under --config=a64 the launcher runs through the emulator
# (tools/a64/emulate.sh sets MOREL_EMULATOR).
sl=(${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$sl")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
source "$TEST_SRCDIR/${TEST_WORKSPACE:-morel}/languages/sl/ir_dumps.sh"

dumps=$(mktemp "${TEST_TMPDIR:-/tmp}/inline_objects.XXXXXX")
trap 'rm -f "$dumps"' EXIT
out=$("${sl[@]}" --engine.Backend=ir_interpreter --engine.BackgroundCompilation=false \
    --engine.OSR=false --engine.DumpIR=pe,dce "$program" 2>"$dumps")
[[ "$out" == "$(cat "$expected")" ]] || fail "output differs: $out"

count() { grep -cE "$2" <<<"$1"; }

calls='call_runtime @[^(]*(InvokeBuiltin|AddPropertyWithShape|WritePropertyGeneric)'
for fn in kept dropped wide narrow; do
  pe=$(ir_dumps "$dumps" "$fn" pe)
  final=$(ir_dumps "$dumps" "$fn" dce)
  [[ -n "$pe" && -n "$final" ]] || { fail "$fn: no pe or dce dump (not compiled?)"; continue; }
  [[ $(count "$pe" '= alloc [0-9]+$') -ge 1 ]] || fail "$fn: no alloc after pe"
  case $fn in
    wide)
      # One call per compilation: the add of p7, which grows the storage.
      [[ $(count "$pe" "$calls") -eq $(count "$pe" '^func @') ]] ||
        fail "$fn: expected one AddPropertyWithShape per compilation:
$(grep -E "$calls" <<<"$pe")"
      grep -E "$calls" <<<"$pe" | grep -qv AddPropertyWithShape &&
        fail "$fn: a runtime call other than AddPropertyWithShape"
      ;;
    *)
      [[ $(count "$pe" "$calls") -eq 0 ]] || fail "$fn: runtime calls after pe:
$(grep -E "$calls" <<<"$pe")"
      ;;
  esac
  case $fn in
    kept) [[ $(count "$final" '= alloc [0-9]+$') -ge 1 ]] || fail "kept: its object escapes, yet no alloc" ;;
    dropped) [[ $(count "$final" '= alloc ') -eq 0 ]] || fail "dropped: an alloc survived escape analysis" ;;
    narrow)
      # The object and its storage: two allocs per compilation, none left.
      [[ $(count "$pe" '= alloc [0-9]+$') -eq $((2 * $(count "$pe" '^func @'))) ]] ||
        fail "narrow: expected two allocs per compilation after pe"
      [[ $(count "$final" '= alloc ') -eq 0 ]] || fail "narrow: an alloc survived escape analysis" ;;
  esac
  [[ $(count "$final" "$calls") -eq $(count "$pe" "$calls") ]] ||
    fail "$fn: the optimizer changed the runtime calls"
done

[[ $failures -eq 0 ]] || head -c 20000 "$dumps"
[[ $failures -eq 0 ]] && echo "all checks passed"
exit $failures
