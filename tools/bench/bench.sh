#!/usr/bin/env bash
# `bazel run //tools/bench -- ...`: runs tools/bench/run.py from the source
# tree (it builds //languages/sl:sl itself, and needs the workspace to do so).
set -eu
if [[ -z "${BUILD_WORKSPACE_DIRECTORY:-}" ]]; then
  echo "bench.sh: use 'bazel run //tools/bench -- ...' or 'python3 tools/bench/run.py ...'" >&2
  exit 2
fi
cd "$BUILD_WORKSPACE_DIRECTORY"
exec python3 tools/bench/run.py "$@"
