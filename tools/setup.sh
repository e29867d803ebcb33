#!/usr/bin/env bash
# Installs the Debian packages Morel's build and tests need on a fresh Debian 12
# machine (apt is the only package source). Idempotent: when everything is
# installed it only checks, which takes well under a second.
#
#   bash tools/setup.sh [--quiet]
#
# --quiet prints nothing when everything is present (tools/bazel runs this
# before every Bazel command).
# Each package is here because a target needs it; see third_party/ for which.
set -euo pipefail

PACKAGES=(
  # Bazel 4.2.3 and the rule repositories it cannot fetch offline.
  bazel-bootstrap bazel-platforms bazel-rules-java
  # Toolchain.
  g++ python3
  # Fuzzing only (--config=fuzz, //third_party/clang_toolchain): clang and
  # its libFuzzer/ASan/UBSan runtimes. `bazel test //...` does not use them.
  clang-14 libclang-rt-14-dev
  # Libraries (third_party/*.BUILD).
  libabsl-dev
  libprotobuf-dev protobuf-compiler
  llvm-14-dev
  libgtest-dev libgmock-dev
  libbenchmark-dev
  libgmp-dev
  libgc-dev
  # Test support: backend_aarch64/testing runs AArch64 code under Unicorn on
  # x86_64 hosts; `bazel test //...` builds and runs it.
  libunicorn-dev
)

missing=()
for package in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null || true)
  [[ "$status" == ii* ]] || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  [[ "${1:-}" == --quiet ]] || echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q -o DPkg::Lock::Timeout=600
$SUDO apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"
echo "setup: done"
