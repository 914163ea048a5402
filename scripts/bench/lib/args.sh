# Sourced by scripts/bench/*.sh (this folder is not run by device_check.sh's loop over scripts/bench/*.sh).
# bench_args DEFAULT_REPS "$@": a bench script's arguments LAUNCHLAB_CLI OUTPUT_DIR [REPS] into $cli, $out and $reps
# (DEFAULT_REPS when not given), the output folder created and $failed set to 0; exits 2 on bad arguments.
bench_args() {
  local default_reps=$1
  shift
  cli=${1:?usage: $0 LAUNCHLAB_CLI OUTPUT_DIR [REPS]}
  out=${2:?usage: $0 LAUNCHLAB_CLI OUTPUT_DIR [REPS]}
  reps=${3:-$default_reps}
  [[ -x "$cli" ]] || { echo "$0: $cli is not an executable" >&2; exit 2; }
  mkdir -p "$out" || exit 2
  failed=0
}
