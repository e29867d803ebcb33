#!/usr/bin/env bash
# sl_smoke_test.sh <sl launcher> <benchmarks.txt>
# Runs every benchmark's SL program at its smoke size (the BENCH:SIZE and
# BENCH:ITERATIONS constants as written in the file) and checks that it exits
# 0 and prints "checksum <smoke_checksum from benchmarks.txt>".
set -u

resolve() {  # runfiles-relative path -> absolute path
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) if [[ -n "${TEST_SRCDIR:-}" ]]; then
         printf '%s\n' "$TEST_SRCDIR/${TEST_WORKSPACE:-morel}/$1"
       else
         printf '%s\n' "$PWD/$1"
       fi ;;
  esac
}

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <sl launcher> <benchmarks.txt>" >&2
  exit 2
fi
sl=$(resolve "$1")
manifest=$(resolve "$2")
dir=$(dirname "$manifest")

failures=0
count=0
while read -r name smoke size warmup_size warmup_iterations checksum rest; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  count=$((count + 1))
  program="$dir/$name/$name.sl"
  if [[ ! -f "$program" ]]; then
    echo "FAIL $name: $program is missing"; failures=$((failures + 1)); continue
  fi
  output=$("$sl" "$program" 2>&1)
  status=$?
  got=$(printf '%s\n' "$output" | sed -n 's/^checksum //p' | tail -n 1)
  if [[ $status -ne 0 ]]; then
    echo "FAIL $name: exit status $status"
    printf '%s\n' "$output" | tail -n 5 | sed 's/^/    /'
    failures=$((failures + 1))
  elif [[ "$got" != "$checksum" ]]; then
    echo "FAIL $name: checksum '$got', expected '$checksum'"
    failures=$((failures + 1))
  else
    echo "ok   $name: checksum $got"
  fi
done < "$manifest"

if [[ $count -eq 0 ]]; then
  echo "FAIL: no benchmarks in $manifest"
  exit 1
fi
echo "$((count - failures)) of $count SL benchmarks passed"
[[ $failures -eq 0 ]]
