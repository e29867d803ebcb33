#!/usr/bin/env bash
# A fake language launcher for the differential runner's self-test:
#   fake_launcher.sh [flags...] program.fake
# A program is a list of commands, one per line:
#   out TEXT          print TEXT and a newline on stdout
#   err TEXT          print TEXT and a newline on stderr
#   copy_stdin        copy stdin to stdout
#   sleep N           sleep N seconds
#   crash             kill itself with SIGSEGV
#   exit N            exit with status N
#   when FLAG CMD     run CMD only if FLAG is one of the launcher flags
#   unless FLAG CMD   run CMD only if it is not
#   stat NAME N       set compilation statistic NAME
#   nostats           do not write the statistics file
# so a program can behave differently in one "mode" (set of flags). The
# statistics file it writes like a Morel engine (not when it crashes), and
# the two commands that set it, are
# testing/conformance/testdata/fake_statistics.sh's.
set -u
source "$TEST_SRCDIR/${TEST_WORKSPACE:-morel}/testing/conformance/testdata/fake_statistics.sh"
split_arguments "$@"

has_flag() {
  local flag
  for flag in "${flags[@]}"; do [[ $flag == "$1" ]] && return 0; done
  return 1
}

run() {  # run <command line>
  local line=$1 cmd arg rest
  cmd=${line%% *}
  arg=""
  [[ "$line" == *" "* ]] && arg=${line#* }
  case $cmd in
    out) printf '%s\n' "$arg" ;;
    err) printf '%s\n' "$arg" >&2 ;;
    copy_stdin) cat ;;
    sleep) sleep "$arg" ;;
    crash) trap - EXIT; kill -SEGV $$ ;;
    exit) exit "$arg" ;;
    stat|nostats) statistics_command "$cmd" "$arg" ;;
    when|unless)
      local flag=${arg%% *}
      rest=${arg#* }
      if has_flag "$flag"; then
        [[ $cmd == when ]] && run "$rest"
      else
        [[ $cmd == unless ]] && run "$rest"
      fi ;;
    "") ;;
    *) echo "fake_launcher: unknown command '$cmd'" >&2; exit 2 ;;
  esac
  return 0
}

while IFS= read -r line <&3 || [[ -n $line ]]; do
  run "$line"
done 3< "$program"
