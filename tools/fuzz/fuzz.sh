#!/usr/bin/env bash
# `bazel run //tools/fuzz -- ...`: runs tools/fuzz/fuzz.py from the source
# tree (it builds the fuzz target itself, and needs the workspace to do so).
set -eu
if [[ -z "${BUILD_WORKSPACE_DIRECTORY:-}" ]]; then
  echo "fuzz.sh: use 'bazel run //tools/fuzz -- ...' or 'python3 tools/fuzz/fuzz.py ...'" >&2
  exit 2
fi
cd "$BUILD_WORKSPACE_DIRECTORY"
exec python3 tools/fuzz/fuzz.py "$@"
