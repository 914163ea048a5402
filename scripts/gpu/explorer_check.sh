#!/usr/bin/env bash
# Runs ON the GPU machine: issue 11's launch-explorer figures (the vector_add block x grid sweep around multiples of
# the SM count, the CPU/GPU crossover over N, occupancy against the CUDA API), issue 12's Mandelbrot against the FP32
# FMA kernel, and the GPU test suite, in one device call. Sections: STEPS="tests sweeps mandelbrot" (default all).
# Usage: scripts/gpu/explorer_check.sh BIN_DIR OUT_DIR   (OUT_DIR gets explorer.tar.gz and summary.txt)
set -u
BIN=$(cd "${1:?bin dir}" && pwd)
OUTDIR=${2:?out dir}
STEPS=${STEPS:-tests sweeps mandelbrot}
WORK=$(mktemp -d)
E=$WORK/explorer
mkdir -p "$E" "$OUTDIR"
export LD_LIBRARY_PATH="$BIN/../lib:${LD_LIBRARY_PATH:-}"
C="$BIN/launchlab-cli"
summary=$E/summary.txt
pack() { tar -C "$WORK" -czf "$OUTDIR/explorer.tar.gz" explorer 2>/dev/null; cp "$summary" "$OUTDIR/summary.txt" 2>/dev/null; }
trap pack EXIT
note() { echo "$*" | tee -a "$summary"; }
note "date: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
has() { [[ " $STEPS " == *" $1 "* ]]; }

step() {  # step NAME TIMEOUT ARGS…: one launchlab-cli call, its output in NAME.txt
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$C" "$@" > "$E/$name.txt" 2>&1
  note "$name: exit $? ($*)"
}

if has tests; then
  timeout 400 "$BIN/launchlab_gpu_tests" > "$E/gpu_tests.txt" 2>&1
  note "launchlab_gpu_tests: exit $?; $(grep -E '^\[  (PASSED|FAILED)  \]' "$E/gpu_tests.txt" | tr '\n' ' ')"
  grep -E '^\[  FAILED  \]' "$E/gpu_tests.txt" | head -n 20 >> "$summary"
fi

if has sweeps; then
  # Grids at k x 132 and k x 132 + 1 (one block more than k full waves of one block per SM), block 32 ... 1024.
  grids=""
  for k in 1 2 3 4 5 6 8 12 16; do grids+="$((132 * k)),$((132 * k + 1)),"; done
  step heatmap_vector_add 240 sweep vector_add --impl cuda-one-per-thread --n 2^22 --block 32:1024:32 \
    --grid "${grids%,}" --reps 7 --warmup 2 --json "$E/sweep_vector_add_heatmap.json" --csv "$E/sweep_vector_add_heatmap.csv"
  step crossover_vector_add 240 sweep vector_add --impl cpu-serial,cpu-parallel,cuda-one-per-thread \
    --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28 --reps 5 --warmup 1 --json "$E/sweep_vector_add_crossover.json"
  grep -h "beats the best CPU" "$E/crossover_vector_add.txt" >> "$summary"
  step occupancy_vector_add 60 occupancy vector_add --impl cuda-one-per-thread --block 32,64,128,256,512,1024 \
    --json "$E/occupancy_vector_add.json"
fi

if has mandelbrot; then
  step mandelbrot_bench 120 bench --section mandelbrot --json "$E/bench_mandelbrot.json"
  grep -h "mandelbrot f32" "$E/mandelbrot_bench.txt" >> "$summary"
fi
cat "$summary"
