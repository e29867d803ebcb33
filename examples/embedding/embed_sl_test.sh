#!/bin/bash
# Runs the embedding example; it checks its own results and exits non-zero
# when one is wrong (see embed_sl.cc).
set -euo pipefail
# Under --config=a64 through the emulator (tools/a64/emulate.sh).
${MOREL_EMULATOR:+"$MOREL_EMULATOR"} "$1"
