#!/bin/bash
# Runs the embedding example; it checks its own results and exits non-zero
# when one is wrong (see embed_sl.cc).
set -euo pipefail
"$1"
