# Sourced by conformance_test.sh and differential_test.sh (bash).
#
# Under --config=a64 the runner and the launcher are AArch64 programs and
# the test runs through tools/a64/emulate.sh, which sets MOREL_EMULATOR to
# itself: the runner then runs under it, and so does every launcher command
# (the emulator becomes the launcher, the real one its first argument).
# Emulated programs run 10-40 times slower than native ones: the
# per-program timeout is MOREL_EMULATOR_TIMEOUT_SCALE (default 10) times
# the target's.
#
# morel_emulate DEFAULT_TIMEOUT: with MOREL_EMULATOR set, rewrites the
# caller's `launcher` and `flags` (the runner's flags; DEFAULT_TIMEOUT is
# the runner's per-program default, used when flags give no
# --timeout_seconds) and sets `emulator` to the command to put before the
# runner; without it, `emulator` is empty and nothing changes.
morel_emulate() {
  emulator=()
  [[ -n "${MOREL_EMULATOR:-}" ]] || return 0
  emulator=("$MOREL_EMULATOR")
  local timeout=$1 flag
  local kept=()
  for flag in "${flags[@]}"; do
    case $flag in
      --timeout_seconds=*) timeout=${flag#--timeout_seconds=} ;;
      *) kept+=("$flag") ;;
    esac
  done
  flags=("--launcher_arg=$launcher" "${kept[@]}"
         "--timeout_seconds=$((timeout * ${MOREL_EMULATOR_TIMEOUT_SCALE:-10}))")
  launcher=$MOREL_EMULATOR
}
