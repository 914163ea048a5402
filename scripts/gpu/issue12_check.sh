#!/usr/bin/env bash
# Runs ON the GPU machine: issue 12's figures in one device call — streams_overlap (the seed's event sequence and
# its poll counts, k streams against pageable synchronous copies, the measured timelines in the JSON results), z_mass's
# fused kernel at 10M events and its fit, histogram_contention's sweep 1200 -> 1 bins, and Mandelbrot against the
# FP32 FMA kernel. The group-by ratio and the Monte Carlo rates are in device_check.sh (STEPS=extra).
# Usage: scripts/gpu/issue12_check.sh BIN_DIR OUT_DIR   (OUT_DIR gets issue12.tar.gz and summary.txt)
set -u
BIN=$(cd "${1:?bin dir}" && pwd)
OUTDIR=${2:?out dir}
WORK=$(mktemp -d)
E=$WORK/issue12
mkdir -p "$E" "$OUTDIR"
export LD_LIBRARY_PATH="$BIN/../lib:${LD_LIBRARY_PATH:-}"
C="$BIN/launchlab-cli"
summary=$E/summary.txt
pack() { tar -C "$WORK" -czf "$OUTDIR/issue12.tar.gz" issue12 2>/dev/null; cp "$summary" "$OUTDIR/summary.txt" 2>/dev/null; }
trap pack EXIT
note() { echo "$*" | tee -a "$summary"; }
note "date: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

step() {  # step NAME TIMEOUT ARGS…: one launchlab-cli call, its output in NAME.txt
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$C" "$@" > "$E/$name.txt" 2>&1
  note "$name: exit $? ($*)"
}

step streams_events 120 course run s3-streams-events --reps 20 --warmup 3 --json "$E/streams_events.json"
step streams_overlap 120 course run s3-streams-overlap --reps 20 --warmup 3 --json "$E/streams_overlap.json"
for k in 4 8; do
  step streams_k$k 120 run streams_overlap --n 16Mi --block 512 --param streams=$k --param chunks=16 \
    --impl cuda-pageable-sync,cuda-async,cuda-streams --reps 20 --warmup 3 --json "$E/streams_k$k.json"
done
step z_mass_fused_10M 180 run z_mass --n 10000000 --impl cpu-parallel,cuda-per-event,cuda-fused --reps 20 --warmup 2 \
  --json "$E/z_mass_fused_10M.json"
step mandelbrot_bench 120 bench --section mandelbrot --json "$E/bench_mandelbrot.json"
grep -h "mandelbrot f32" "$E/mandelbrot_bench.txt" >> "$summary"
mkdir -p "$E/atlas_histogram"
timeout 300 bash "$(dirname "$0")/../bench/workloads_atlas_histogram.sh" "$C" "$E/atlas_histogram" \
  > "$E/atlas_histogram/summary.txt" 2>&1
note "workloads_atlas_histogram: exit $?"
tail -n 40 "$E/atlas_histogram/summary.txt" >> "$summary"
cat "$summary"
