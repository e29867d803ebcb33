#!/usr/bin/env bash
# fuzz.py's command line: --help documents the flags; bad values are usage
# errors before anything is built. (Campaigns themselves need Bazel and are
# run by hand: see README.md.)
set -uo pipefail
script=tools/fuzz/fuzz.py
fail() { echo "FAIL: $*"; exit 1; }
help=$(python3 "$script" --help) || fail "--help exits non-zero"
for flag in --target --seconds --runs --engine --out --timeout --list; do
  grep -q -- "$flag" <<<"$help" || fail "--help does not mention $flag"
done
python3 "$script" --target=x --seconds=0 >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--seconds=0 must be a usage error"
python3 "$script" --target=x --runs=-3 >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--runs=-3 must be a usage error"
python3 "$script" --target=x --engine=afl >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--engine=afl must be a usage error"
echo PASS
