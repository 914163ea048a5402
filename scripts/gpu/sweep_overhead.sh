#!/usr/bin/env bash
# Runs ON the GPU machine: the sweep harness's overhead per point (target: <= 1 ms), outside the timed work.
# A sweep of 1 point and one of 125 points (cuda-grid-stride, block 32:1024:8) at each N, each the fastest of 3
# (1 point) or 2 (125 points) runs; the overhead per point is (wall(125) - wall(1)) / 124 minus what the point itself
# timed ((warmup + reps) x its total median: H2D + kernel + D2H), so process start, CUDA context creation and the
# sweep's one cudaMemcpy measurement, paid once and noisy by tens of ms, are left out.
# Usage: scripts/gpu/sweep_overhead.sh LAUNCHLAB_CLI OUT_DIR
set -u
C=${1:?launchlab-cli}
OUT=${2:?out dir}
mkdir -p "$OUT"
reps=5 warmup=1
wall() {  # wall NAME TRIES ARGS…: the fewest microseconds of TRIES sweeps, the JSON in OUT/NAME.json
  local name=$1 tries=$2 t0 t1 best=0 i
  shift 2
  for ((i = 0; i < tries; ++i)); do
    t0=$(date +%s%N)
    "$C" sweep vector_add --impl cuda-grid-stride --reps $reps --warmup $warmup "$@" --json "$OUT/$name.json" > /dev/null
    t1=$(date +%s%N)
    (( best == 0 || (t1 - t0) / 1000 < best )) && best=$(((t1 - t0) / 1000))
  done
  echo $best
}
for n in 2^16 2^20 2^24; do
  w1=$(wall "one_$n" 3 --n "$n" --block 256:256:32)
  w32=$(wall "many_$n" 2 --n "$n" --block 32:1024:8)
  python3 - "$OUT/many_$n.json" "$w1" "$w32" "$n" $((reps + warmup)) <<'PY'
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
w1, w32, n, runs = float(sys.argv[2]) / 1e6, float(sys.argv[3]) / 1e6, sys.argv[4], int(sys.argv[5])
pts = [p for p in doc["points"] if p["status"] == "ok"]
timed = sum(p["total_median_ms"] for p in pts) / len(pts) * runs
per_point = (w32 - w1) * 1000 / (len(pts) - 1)
# In the process: each cell's wall time around its run (cell_wall_ms) minus the work it timed; the median over the
# cells, free of process start and of the once-per-sweep cudaMemcpy measurement.
inproc = statistics.median(p["cell_wall_ms"] - runs * p["total_median_ms"] for p in pts)
print(f"n={n}: {len(pts)} points, wall 1 point {w1:.3f} s, {len(pts)} points {w32:.3f} s; per point {per_point:.2f} ms, "
      f"of which timed work {timed:.2f} ms ({runs} runs x total median): harness overhead {per_point - timed:.2f} ms; "
      f"in process (median over points of cell wall - timed work): {inproc:.2f} ms")
PY
done | tee "$OUT/overhead.txt"
