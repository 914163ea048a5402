#!/usr/bin/env bash
# Runs ON the GPU machine: the real window's CPU timings at its first run (--print-timings) under variations of the
# OpenMP environment, beside launchlab-cli's, with what the worker's threads waited for a core (their schedstat:
# time on a CPU, time runnable but waiting) and what ran meanwhile (top -H). A diagnosis, not a test.
# Usage: scripts/gpu/window_cpu_probe.sh BUNDLE OUT_DIR [EXPERIMENT]   (BUNDLE: SUITES=ui bundle_suites.sh)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUNDLE=${1:?bundle}
OUT=${2:?out dir}
EXP=${3:-tp32-histogram}
mkdir -p "$OUT"
trap 'tar -C "$OUT" -czf "$OUT/../window_cpu_probe.tar.gz" . 2>/dev/null' EXIT
source "$HERE/lib/check.sh"
ROOT=$(mktemp -d)
unpack_suites "$BUNDLE" "$ROOT"
export FONTCONFIG_FILE="$G/fonts.conf" XDG_RUNTIME_DIR="$ROOT/xdg" HOME="$ROOT"
cfg=$ROOT/screen.json
echo '{"windowFrames": false, "screens": [{"name": "s", "x": 0, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96, "dpr": 1}]}' > "$cfg"
echo "cores $(nproc), $(grep Cpus_allowed_list /proc/self/status | tr -s '\t' ' ')"
for i in 1 2; do
  echo "cli: $("$G/bin/launchlab-cli" course run "$EXP" 2>&1 | grep -E '^cpu-(serial|parallel) ' | awk '{print $1, $6}' | tr '\n' ' ')"
done
for spec in "coalescing --n 1Mi" "vector_add --n 16Mi"; do
  read -r -a args <<< "$spec"
  echo "cli $spec: $("$G/bin/launchlab-cli" run "${args[@]}" --impl cpu-serial,cpu-parallel 2>&1 | grep -E '^cpu-(serial|parallel) ' | awk '{print $1, $6}' | tr '\n' ' ')"
done
# The worker's threads: runnable-but-waiting time (ns) per thread, the last sample before the window quits.
watch_worker() {
  local label=$1 w last=""
  for _ in $(seq 100); do
    w=$(pgrep -f "launchlab-cli worker" | head -1)
    if [ -n "$w" ]; then
      last="worker $w $(grep Cpus_allowed_list /proc/$w/status | tr -s '\t' ' ')"$'\n'
      for t in /proc/$w/task/*; do last+="  tid ${t##*/} $(cat "$t/comm" "$t/schedstat" 2>/dev/null | tr '\n' ' ')"$'\n'; done
      echo "$last" > "$OUT/$label.sched"
    fi
    sleep 0.1
  done
}
window() {  # LABEL ENV...
  local label=$1
  shift
  env "$@" QT_QPA_PLATFORM="offscreen:configfile=$cfg" timeout 120 "$G/bin/launchlab" --course "$EXP" --print-timings \
    --screenshot "$ROOT/$label.png" > "$OUT/$label.log" 2>&1 &
  local pid=$!
  watch_worker "$label" &
  local watcher=$!
  top -H -b -n 6 -d 0.5 -w 160 | grep -E "launchlab|QThread|Qt|omp|  [0-9]+ root" | awk '$9 > 3' | head -60 > "$OUT/$label.top"
  wait "$pid"
  kill "$watcher" 2> /dev/null
  echo "window $label: $(grep -E 'timing cpu-(serial|parallel) ' "$OUT/$label.log" | sed 's/ over.*//' | tr '\n' ' ')"
}
# VARIANTS: LABEL=ENV pairs ("omp8=OMP_NUM_THREADS=8 passive=OMP_WAIT_POLICY=passive"); the default always runs.
window default X=1
for v in ${VARIANTS:-}; do window "${v%%=*}" "${v#*=}"; done
echo "--- top -H during the default run (threads above 3 % CPU)"
head -30 "$OUT/default.top"
echo "--- the worker's threads at the end of the default run: comm, ns on CPU, ns waiting, slices"
head -40 "$OUT/default.sched"
