#!/usr/bin/env bash
# Opening a recorded sweep in the window: how long until it is shown, the longest time the GUI thread was blocked
# meanwhile, the CPU time the window used in all, and its peak memory, for sweeps of 10000, 40000 and 100000 points.
#
#   scripts/bench/open_sweep.sh LAUNCHLAB [SHAPES] [SIZES]
#
# LAUNCHLAB is the window's binary (build/app/launchlab); SHAPES defaults to "curve grid crossover" and SIZES to
# "10000 40000 100000" (scripts/bench/make_sweep.py writes the files, once, under $SWEEP_DIR or a temporary folder).
# Each file is opened with `launchlab --no-gl --open-sweep FILE --screenshot PNG` (offscreen unless DISPLAY is set),
# which prints when the sweep was shown; a run past $TIMEOUT seconds (default 300) is killed and reported as such.
# Times include the background read and parse, and the CPU time the window's start and its first run (a quick
# vector_add, forced by --screenshot) too. On a loaded machine the wall times wait for a core: compare CPU times.
set -u
app=${1:?usage: open_sweep.sh LAUNCHLAB [SHAPES] [SIZES]}
shapes=${2:-curve grid crossover}
sizes=${3:-10000 40000 100000}
timeout_s=${TIMEOUT:-300}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${SWEEP_DIR:-$(mktemp -d)}
mkdir -p "$dir"
[[ -n ${DISPLAY:-} ]] || export QT_QPA_PLATFORM=offscreen
export QT_LOGGING_RULES="qt.qpa.*=false"

printf '%-10s %7s %8s %12s %14s %8s %8s\n' shape points "file MB" "shown (ms)" "longest stall" "CPU s" "peak MB"
for shape in $shapes; do
  for n in $sizes; do
    file=$dir/${shape}_$n.json
    [[ -s $file ]] || python3 "$here/make_sweep.py" "$shape" "$n" "$file" || exit 2
    log=$dir/${shape}_$n.log
    /usr/bin/time -f 'peak_kb %M cpu_s %U %S' timeout -k 10 "$timeout_s" "$app" --no-gl --open-sweep "$file" \
      --screenshot "$dir/${shape}_$n.png" >"$log" 2>&1
    rc=$?
    line=$(grep -m1 '^sweep shown' "$log")
    shown=$(awk '{ print $3 }' <<<"$line")
    stall=$(awk '{ print $11 }' <<<"$line")
    peak=$(awk '/^peak_kb/ { printf "%.0f", $2 / 1024 }' "$log")
    cpu=$(awk '/^peak_kb/ { printf "%.1f", $4 + $5 }' "$log")
    if [[ -z $line ]]; then
      shown=$([[ $rc == 124 || $rc == 137 ]] && echo ">${timeout_s}000" || echo "failed($rc)")
      stall=-
    fi
    printf '%-10s %7s %8s %12s %14s %8s %8s\n' "$shape" "$n" "$(du -m --apparent-size "$file" | cut -f1)" \
      "$shown" "${stall:+$stall ms}" "${cpu:--}" "${peak:--}"
  done
done
