#!/bin/bash
# Checks the ir_opt driver end to end: optimizing a file, --verify failures,
# unknown passes, --fuel and --list-passes.
set -u
IR_OPT="$1"
fail=0
check() {  # name, expected substring, actual
  if [[ "$3" != *"$2"* ]]; then
    echo "FAIL: $1: expected to find:"; echo "$2"; echo "in:"; echo "$3"; fail=1
  else
    echo "PASS: $1"
  fi
}
tmp="${TEST_TMPDIR:-/tmp}"
cat > "$tmp/in.ir" <<'IR'
declare @print(i64) -> ()
func @f(i64) -> (i64) {
block0(v0: i64):
  v1 = iconst.i64 2
  v2 = iconst.i64 3
  v3 = iadd v1, v2
  v4 = iadd v0, v3
  v5 = iadd v0, v3
  call_runtime @print(v5) -> ()
  v6 = imul v4, v5
  return v6
}
IR
out=$("$IR_OPT" --passes=canonicalize,gvn,dce --verify "$tmp/in.ir" 2>&1); rc=$?
check "optimizes" "declare @print(i64) -> ()

func @f(i64) -> (i64) {
block0(v0: i64):
  v3 = iconst.i64 5
  v4 = iadd v0, v3
  call_runtime @print(v4) -> ()
  v6 = imul v4, v4
  return v6
}" "$out"
[[ $rc == 0 ]] || { echo "FAIL: exit status $rc"; fail=1; }

out=$("$IR_OPT" --passes=canonicalize --fuel=0 --stats < "$tmp/in.ir" 2>&1)
check "fuel 0 keeps the input" "  v3 = iadd v1, v2" "$out"
check "stats" "canonicalize" "$out"

out=$("$IR_OPT" --passes=gvn,nosuchpass "$tmp/in.ir" 2>&1); rc=$?
check "unknown pass" "unknown pass 'nosuchpass'" "$out"
[[ $rc == 2 ]] || { echo "FAIL: unknown pass exit status $rc"; fail=1; }

printf 'func @g(i32) -> (i64) {\nblock0(v0: i32):\n  return v0\n}\n' > "$tmp/bad.ir"
out=$("$IR_OPT" --passes=dce --verify "$tmp/bad.ir" 2>&1); rc=$?
check "verify" "returns (i32) but the function returns (i64)" "$out"
[[ $rc == 1 ]] || { echo "FAIL: verify exit status $rc"; fail=1; }

printf 'func @g() -> () {\nblock0:\n  v0 = bogus\n}\n' > "$tmp/syntax.ir"
out=$("$IR_OPT" "$tmp/syntax.ir" 2>&1)
check "parse error position" "line 3, column 8: unknown opcode 'bogus'" "$out"

out=$("$IR_OPT" --list-passes)
check "list" "guard_elim" "$out"
exit $fail
