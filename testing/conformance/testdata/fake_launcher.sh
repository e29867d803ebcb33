#!/usr/bin/env bash
# A fake language launcher for the conformance runner's self-test:
#   fake_launcher.sh [flags...] program.fake
# A program is a list of commands, one per line:
#   out TEXT     print TEXT and a newline on stdout
#   outn TEXT    print TEXT on stdout, no newline
#   err TEXT     print TEXT and a newline on stderr
#   copy_stdin   copy stdin to stdout
#   args         print "args:" and the flags given before the program
#   background   start a background process that keeps stdout/stderr open
#   sleep N      sleep N seconds
#   exit N       exit with status N
#   stat NAME N  set compilation statistic NAME
#   nostats      do not write the statistics file
# The statistics file it writes like a Morel engine, and the two commands
# that set it, are testdata/fake_statistics.sh's (shared with
# testing/differential's fake launcher).
set -u
source "$TEST_SRCDIR/${TEST_WORKSPACE:-morel}/testing/conformance/testdata/fake_statistics.sh"
split_arguments "$@"
while IFS= read -r line <&3 || [[ -n $line ]]; do
  cmd=${line%% *}
  arg=""
  [[ "$line" == *" "* ]] && arg=${line#* }
  case $cmd in
    out) printf '%s\n' "$arg" ;;
    outn) printf '%s' "$arg" ;;
    err) printf '%s\n' "$arg" >&2 ;;
    copy_stdin) cat ;;
    args) printf 'args:'; printf ' %s' "${flags[@]}"; printf '\n' ;;
    background) sleep 1000 & ;;
    sleep) sleep "$arg" ;;
    exit) exit "$arg" ;;
    stat|nostats) statistics_command "$cmd" "$arg" ;;
    "") ;;
    *) echo "fake_launcher: unknown command '$cmd'" >&2; exit 2 ;;
  esac
done 3< "$program"
