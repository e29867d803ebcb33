#!/bin/bash
# host_inlining_test: check_fast_paths.py over the optimized archive of :roots.
# Args: check_fast_paths.py fast_paths.txt libroots.a.
set -u
checker=$1 spec=$2 archive=$3
exec python3 "$checker" "$spec" "$archive"
