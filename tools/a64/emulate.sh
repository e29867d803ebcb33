#!/usr/bin/env bash
# Runs a command whose programs may be built for AArch64 on an x86_64 host:
#
#   emulate.sh PROGRAM [ARGS...]
#
# An AArch64 ELF PROGRAM runs under qemu-aarch64 (user mode; this machine
# has no binfmt_misc registration, so the kernel cannot run it directly).
# Anything else (a shell script, a host binary) runs as it is, with
# MOREL_EMULATOR set to this script: test scripts that start AArch64
# programs themselves prefix them with "${MOREL_EMULATOR:-}"
# (testing/conformance/conformance_test.sh does). --config=a64 runs every
# test through it (test:a64 --run_under in .bazelrc).
#
# QEMU_CPU (e.g. cortex-a53, which lacks LSE atomics) passes through to qemu.
set -euo pipefail

if [[ $# -eq 0 ]]; then
  echo "usage: $0 PROGRAM [ARGS...]" >&2
  exit 2
fi

# ELF magic, 64-bit, little-endian, and e_machine (bytes 18-19) 183 = EM_AARCH64.
is_aarch64_elf() {
  local header
  header=$(head -c 20 "$1" 2>/dev/null | od -An -v -tx1 | tr -d ' \n') || return 1
  [[ "$header" == 7f454c460201* && "${header:36:4}" == b700 ]]
}

program=$1
if [[ "$program" != */* ]]; then
  program=$(command -v "$program" || true)
fi
if [[ -n "$program" && -f "$program" ]] && is_aarch64_elf "$program"; then
  shift
  exec qemu-aarch64 "$program" "$@"
fi

self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
export MOREL_EMULATOR="$self"
exec "$@"
