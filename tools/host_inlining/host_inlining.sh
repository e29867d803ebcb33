#!/usr/bin/env bash
# `bazel run //tools/host_inlining -- ...`: runs tools/host_inlining/report.py
# from the source tree (it builds //testing/host_inlining:roots and compiles
# its sources itself, and needs the workspace to do so).
set -eu
if [[ -z "${BUILD_WORKSPACE_DIRECTORY:-}" ]]; then
  echo "host_inlining.sh: use 'bazel run //tools/host_inlining -- ...'" \
       "or 'python3 tools/host_inlining/report.py ...'" >&2
  exit 2
fi
cd "$BUILD_WORKSPACE_DIRECTORY"
exec python3 tools/host_inlining/report.py --workspace "$BUILD_WORKSPACE_DIRECTORY" "$@"
