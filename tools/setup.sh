#!/usr/bin/env bash
# Installs the Debian packages Morel's build and tests need on a fresh Debian 12
# machine (apt is the only package source). Idempotent: when everything is
# installed it only checks, which takes well under a second.
#
#   bash tools/setup.sh [--quiet] [--aarch64]
#
# --quiet prints nothing when everything is present (tools/bazel runs this
# before every Bazel command).
# --aarch64 also installs what the AArch64 cross build and its tests under
# qemu need (bazel ... --config=a64; tools/a64/README.md): the arm64
# architecture, the cross compiler, qemu-user and the arm64 builds of the
# libraries. Opt-in: neither CI nor tools/bazel installs these.
# Each package is here because a target needs it; see third_party/ for which.
set -euo pipefail

quiet=false
aarch64=false
for arg in "$@"; do
  case "$arg" in
    --quiet) quiet=true ;;
    --aarch64) aarch64=true ;;
    *) echo "usage: $0 [--quiet] [--aarch64]" >&2; exit 2 ;;
  esac
done

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
  # LLVM's static MC libraries (third_party/llvm.BUILD), and the terminfo
  # and zlib libraries they call (named for the link).
  llvm-14-dev libncurses-dev zlib1g-dev
  libgtest-dev libgmock-dev
  libbenchmark-dev
  libgmp-dev
  libgc-dev
  # Test support: backend_aarch64/testing runs AArch64 code under Unicorn on
  # x86_64 hosts; `bazel test //...` builds and runs it.
  libunicorn-dev
)

# --aarch64: beside the amd64 packages above (Debian multiarch). The amd64
# protoc and LLVM headers serve the arm64 build too. NEVER add
# llvm-14-dev:arm64: apt would remove clang, llvm-14-dev, bazel-bootstrap and
# python3 to install it; libllvm14:arm64 (the shared object) is all the
# cross build links (third_party/llvm.BUILD).
AARCH64_PACKAGES=(
  # The cross compiler (g++ 12, like the host's) and the user-mode emulator
  # the tests run under (qemu-aarch64; no binfmt registration needed).
  g++-aarch64-linux-gnu qemu-user
  # Libraries, as above.
  libabsl-dev:arm64
  libprotobuf-dev:arm64
  libllvm14:arm64
  libgtest-dev:arm64 libgmock-dev:arm64
  libgmp-dev:arm64
  libgc-dev:arm64
)

if $aarch64; then
  PACKAGES+=("${AARCH64_PACKAGES[@]}")
fi

missing=()
for package in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null || true)
  [[ "$status" == ii* ]] || missing+=("$package")
done
add_arm64=false
if $aarch64 && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  add_arm64=true
fi

if [[ ${#missing[@]} -eq 0 ]] && ! $add_arm64; then
  $quiet || echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
if $add_arm64; then
  echo "setup: adding the arm64 architecture (dpkg --add-architecture arm64)"
  $SUDO dpkg --add-architecture arm64
fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -q -o DPkg::Lock::Timeout=600

if $aarch64; then
  # Multiarch packages must have the same version for every architecture, so
  # apt may upgrade installed amd64 libraries to the arm64 ones' versions:
  # say which. And refuse anything that would remove a package (installing
  # the wrong arm64 package can remove the compilers, Bazel and python3).
  plan=$($SUDO apt-get install -s -y -q --no-install-recommends \
    -o DPkg::Lock::Timeout=600 "${missing[@]}")
  removals=$(grep '^Remv ' <<<"$plan" || true)
  if [[ -n "$removals" ]]; then
    echo "setup: refusing to install: apt would remove packages:" >&2
    echo "$removals" >&2
    exit 1
  fi
  upgrades=$(grep -E '^Inst [^ ]+ \[' <<<"$plan" | awk '{print $2, $3}' || true)
  if [[ -n "$upgrades" ]]; then
    echo "setup: apt upgrades these installed packages to match the arm64 ones:"
    sed 's/^/  /' <<<"$upgrades"
  fi
fi

$SUDO apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"
echo "setup: done"
