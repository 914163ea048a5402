#!/usr/bin/env bash
# Runs ON the GPU machine: the streams and ATLAS figures in one device call — streams_overlap (the seed's event sequence and
# its poll counts, k streams against pageable synchronous copies, the measured timelines in the JSON results), z_mass's
# fused kernel at 10M events and its fit, histogram_contention's sweep 1200 -> 1 bins, and Mandelbrot against the
# FP32 FMA kernel. The group-by ratio and the Monte Carlo rates are in device_check.sh (STEPS=extra).
# Usage: scripts/gpu/streams_atlas_check.sh BIN_DIR OUT_DIR   (OUT_DIR gets streams_atlas.tar.gz and summary.txt)
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
check_begin streams_atlas "${1:?bin dir}" "${2:?out dir}"

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
