# The compilation statistics of the fake launchers (testing/conformance and
# testing/differential), sourced by both: like a Morel engine, a launcher
# given --engine.CompilationStatisticsFile=PATH writes one `name value` line
# per statistic to PATH when it exits (not when it is killed), in the
# engine's order (Engine::WriteCompilationStatistics). Its programs set them
# with two commands:
#   stat NAME N  set compilation statistic NAME (successful, failed,
#                recompilation_limits, due_targets, background_compilation,
#                deopt_every_n, ...; all 0 by default)
#   nostats      do not write the statistics file

statistics_file=""
statistics_names=(successful failed recompilation_limits deopts invalidations executed_targets
  due_targets background_compilation deopt_every_n)
declare -A stats=()
for name in "${statistics_names[@]}"; do stats[$name]=0; done

# split_arguments ARGS...: sets `flags` (the launcher flags, without the
# statistics flag) and `program` (the last argument).
split_arguments() {
  flags=()
  while [[ $# -gt 1 ]]; do
    case $1 in
      --engine.CompilationStatisticsFile=*) statistics_file=${1#*=} ;;
      *) flags+=("$1") ;;
    esac
    shift
  done
  program=${1:?usage: fake_launcher.sh [flags...] program.fake}
}

# statistics_command CMD ARG: runs a `stat` or `nostats` command.
statistics_command() {
  case $1 in
    stat) stats[${2%% *}]=${2#* } ;;
    nostats) statistics_file="" ;;
  esac
}

write_statistics() {
  [[ -n "$statistics_file" ]] || return 0
  local name
  for name in "${statistics_names[@]}"; do
    printf '%s %s\n' "$name" "${stats[$name]}"
  done > "$statistics_file"
}
trap write_statistics EXIT
