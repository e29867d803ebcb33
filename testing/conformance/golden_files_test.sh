#!/usr/bin/env bash
# Checks that a golden test directory is well formed, without running anything:
#   golden_files_test.sh <extension> <test files...>
# Every program <name>.<extension> has a <name>.output; every .output, .input
# and .exit belongs to a program; every .exit holds one integer.
set -u
ext=$1
shift
failures=0
declare -A programs=()
for file in "$@"; do
  [[ $file == *".$ext" ]] && programs[$(basename "$file" ".$ext")]=1
done
for file in "$@"; do
  base=$(basename "$file")
  name=${base%.*}
  case $base in
    *".$ext")
      [[ -f "$(dirname "$file")/$name.output" ]] ||
        { echo "FAIL: $base has no $name.output"; failures=$((failures + 1)); } ;;
    *.output | *.input | *.exit)
      [[ -n "${programs[$name]:-}" ]] ||
        { echo "FAIL: $base belongs to no program $name.$ext"; failures=$((failures + 1)); }
      if [[ $base == *.exit ]] && ! grep -qxE '[0-9]+' "$file"; then
        echo "FAIL: $base does not hold one integer"; failures=$((failures + 1))
      fi ;;
    *) echo "FAIL: unexpected file $base"; failures=$((failures + 1)) ;;
  esac
done
if [[ $failures -ne 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "${#programs[@]} programs, all well formed"
