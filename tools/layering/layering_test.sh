#!/bin/bash
# Fails when a layering_check (layering.bzl) found a forbidden dependency.
# Usage: layering_test.sh NAME FROM_FILE TO_FILE [NAME FROM_FILE TO_FILE ...]
set -u
failed=0
checked=0
while (($# >= 3)); do
  name=$1 from=$2 to=$3
  shift 3
  checked=$((checked + 1))
  if [[ -s $from || -s $to ]]; then
    failed=$((failed + 1))
    echo "FAIL $name: forbidden dependency (DESIGN §2; rules in tools/layering/BUILD)"
    echo "  from: $(tr '\n' ' ' <"$from")"
    echo "  on:   $(tr '\n' ' ' <"$to")"
    echo "  path: bazel query 'somepath(<from>, <on>)'"
  else
    echo "ok   $name"
  fi
done
if (($# != 0 || checked == 0)); then
  echo "usage: layering_test.sh NAME FROM_FILE TO_FILE..." >&2
  exit 2
fi
echo "$checked rules, $failed broken"
((failed == 0))
