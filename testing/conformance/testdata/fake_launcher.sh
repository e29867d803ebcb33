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
#   stat NAME N  set compilation statistic NAME (successful, failed,
#                recompilation_limits, due_targets, background_compilation,
#                deopt_every_n, ...; all 0 by default)
#   nostats      do not write the statistics file
# Like a Morel engine, with --engine.CompilationStatisticsFile=PATH it writes
# the statistics to PATH when it exits.
set -u
flags=()
statistics_file=""
while [[ $# -gt 1 ]]; do
  case $1 in
    --engine.CompilationStatisticsFile=*) statistics_file=${1#*=} ;;
    *) flags+=("$1") ;;
  esac
  shift
done
program=${1:?usage: fake_launcher.sh [flags...] program.fake}
declare -A stats=([successful]=0 [failed]=0 [recompilation_limits]=0 [deopts]=0
  [invalidations]=0 [executed_targets]=0 [due_targets]=0 [background_compilation]=0
  [deopt_every_n]=0)
write_statistics() {
  [[ -n "$statistics_file" ]] || return 0
  local name
  for name in successful failed recompilation_limits deopts invalidations executed_targets \
      due_targets background_compilation deopt_every_n; do
    printf '%s %s\n' "$name" "${stats[$name]}"
  done > "$statistics_file"
}
trap write_statistics EXIT
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
    stat) stats[${arg%% *}]=${arg#* } ;;
    nostats) statistics_file="" ;;
    "") ;;
    *) echo "fake_launcher: unknown command '$cmd'" >&2; exit 2 ;;
  esac
done 3< "$program"
