#!/usr/bin/env bash
# The AArch64 end-to-end tests: cross-builds Morel for AArch64
# (--config=a64) and runs SimpleLanguage's tests under qemu-aarch64 -- the
# golden programs through the `sl` launcher in the interpreter and in the
# IR-interpreter tier (partial evaluation, optimization, deoptimization),
# shared code, the examples, the SL unit tests, and the runners' own tests.
# Tests that need x86_64 or the AArch64 backend (not linked yet) are
# SKIPPED, never passed. Not run by CI (too heavy); see tools/a64/README.md.
#
#   tools/a64/test.sh [bazel test flags...] [-- targets...]
#
# Installs what is missing first (tools/setup.sh --aarch64; apt). Ends with
# "N passed, N failed, N skipped" over the Bazel test targets and a line per
# conformance test with the programs it ran.
set -uo pipefail
cd "$(dirname "$0")/../.."

TARGETS=(
  //languages/sl/...
  //testing/conformance/...
  //testing/differential/...
  //examples/...
)

flags=()
while [[ $# -gt 0 && $1 != "--" ]]; do flags+=("$1"); shift; done
if [[ $# -gt 0 ]]; then
  shift
  TARGETS=("$@")
fi

bash tools/setup.sh --aarch64 --quiet || { echo "0 passed, 1 failed"; exit 1; }
export MOREL_SETUP_DONE=1  # tools/bazel need not check again

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Optimized (emulated fastbuild code is about 12 times slower: the
# compiled-mode conformance tests then exceed even a64's timeouts; pass
# -c fastbuild to override). Two jobs and a low priority: the machines are
# small and shared.
nice -n 10 bazel test --config=a64 -c opt --jobs=2 --keep_going "${flags[@]}" \
  -- "${TARGETS[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# Programs per conformance test, from each test's log ("N passed, N failed"
# is the runner's last line).
testlogs=bazel-testlogs  # the convenience symlink: the configuration just tested
echo
echo "Programs run under qemu-aarch64, per conformance test:"
grep -E '^//[^ ]+ +(\(cached\) )?(PASSED|FAILED|TIMEOUT)' "$log" | awk '{print $1}' |
  while read -r target; do
    file="$testlogs/$(sed 's|^//||; s|:|/|' <<<"$target")/test.log"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$file" 2>/dev/null | tail -n 1)
    [[ -n "$line" ]] && printf '  %-64s %s\n' "$target" "$line"
  done

# Bazel's per-target summary (.bazelrc: --test_summary=short).
passed=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED' "$log")
skipped=$(grep -cE '^//[^ ]+ +SKIPPED' "$log")
failed=$(grep -E '^//[^ ]+ +' "$log" | grep -vcE '^//[^ ]+ +((\(cached\) )?PASSED|SKIPPED)')
if [[ $status -ne 0 && $failed -eq 0 ]]; then
  failed=1  # the build or Bazel itself failed before any test ran
fi
echo "${passed} passed, ${failed} failed, ${skipped} skipped"
[[ $status -eq 0 && $failed -eq 0 ]]
