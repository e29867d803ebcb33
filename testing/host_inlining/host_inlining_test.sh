#!/bin/bash
# host_inlining_test: check_fast_paths.py over the optimized archive of :roots.
# Args: check_fast_paths.py fast_paths.txt <the outputs of :roots>.
set -u
checker=$1 spec=$2
shift 2
archive=""
for file in "$@"; do
  [[ "$file" == *.a ]] && archive=$file
done
[[ -n "$archive" ]] || { echo "FAIL: no archive among :roots' outputs: $*"; exit 1; }
exec python3 "$checker" "$spec" "$archive"
