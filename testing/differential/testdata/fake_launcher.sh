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
#   stat NAME N       set compilation statistic NAME (successful, failed,
#                     recompilation_limits, due_targets, background_compilation,
#                     deopt_every_n, ...; all 0 by default)
#   nostats           do not write the statistics file
# so a program can behave differently in one "mode" (set of flags). Like a
# Morel engine, with --engine.CompilationStatisticsFile=PATH it writes the
# statistics to PATH when it exits (not when it crashes).
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
    stat) stats[${arg%% *}]=${arg#* } ;;
    nostats) statistics_file="" ;;
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
