#!/usr/bin/env bash
# The replay driver (replay_main.cc) against a target with a planted bug
# (any byte 0xff aborts): the seed alone passes, deterministic mutations
# find the bug and leave the crashing input behind, bad flags are usage
# errors.
set -uo pipefail
fuzzer=testing/fuzz/planted_bug_fuzzer
corpus=testing/fuzz/testdata/planted_corpus
out=$(mktemp -d)
fail() { echo "FAIL: $*"; exit 1; }

TEST_UNDECLARED_OUTPUTS_DIR=$out "$fuzzer" "$corpus" >"$out/stdout" 2>"$out/stderr" \
  || fail "the seed alone must pass: $(cat "$out/stderr")"
grep -q "replay: 1 files and 0 mutations" "$out/stdout" || fail "summary: $(cat "$out/stdout")"

TEST_UNDECLARED_OUTPUTS_DIR=$out "$fuzzer" --mutations=2000 "$corpus" \
  >"$out/stdout" 2>"$out/stderr"
status=$?
[[ $status -ne 0 ]] || fail "2000 mutations did not find the planted bug"
grep -q "fuzz property failed: no byte is 0xff" "$out/stderr" || fail "no property message"
reproducer=$(sed -n 's/^replay: the crashing input is in //p' "$out/stderr")
[[ -f "$reproducer" ]] || fail "no reproducer file: $(cat "$out/stderr")"
grep -q $'\xff' "$reproducer" || fail "the reproducer does not hold 0xff"
# The reproducer replays the crash on its own.
"$fuzzer" "$reproducer" >/dev/null 2>&1 && fail "the reproducer does not crash"

# Same seed, same mutations: the same reproducer.
TEST_UNDECLARED_OUTPUTS_DIR=$out/again "$fuzzer" --mutations=2000 "$corpus" >/dev/null 2>&1
mkdir -p "$out/again"
TEST_UNDECLARED_OUTPUTS_DIR=$out/again "$fuzzer" --mutations=2000 "$corpus" \
  >/dev/null 2>"$out/stderr_again"
cmp -s "$reproducer" "$(sed -n 's/^replay: the crashing input is in //p' "$out/stderr_again")" \
  || fail "mutations are not deterministic"

"$fuzzer" --mutations=x "$corpus" >/dev/null 2>"$out/stderr"
[[ $? -eq 2 ]] || fail "--mutations=x must be a usage error"
grep -q "expects a non-negative integer" "$out/stderr" || fail "usage message"
"$fuzzer" --frobnicate "$corpus" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "an unknown flag must be a usage error"
"$fuzzer" no/such/dir >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "a missing corpus must be a usage error"
echo PASS
