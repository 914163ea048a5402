#!/usr/bin/env bash
# On the GPU machine: device selection, occupancy and the memory/Mandelbrot bench in one call (run from the repository root, after
# device_check.sh's binaries are unpacked). Usage: scripts/gpu/devices_occupancy_check.sh BIN_DIR OUT_DIR [PROBE]
# Device listing and --device, the GPU suite (every CUDA variant, core occupancy against the CUDA API), the
# occupancy CLI (theory beside the API), bench's memory and mandelbrot sections (ratios within one run), the
# Mandelbrot preset, compute-sanitizer on the new kernels, the window on atlas-mandelbrot, and an optional probe.
set -u
BIN=$1 E=$2 PROBE=${3:-}
mkdir -p "$E"
note() { echo "$*" >> "$E/machine.txt"; }
{ nvidia-smi --query-gpu=name,driver_version,memory.total,ecc.mode.current --format=csv; date -u; } > "$E/machine.txt"
"$BIN/launchlab-cli" info > "$E/info.txt" 2>&1
"$BIN/launchlab-cli" info --json > "$E/info.json" 2>&1
"$BIN/launchlab-cli" run vector_add --n 2^24 --device 0 > "$E/device0.txt" 2>&1; note "run --device 0: exit $?"
"$BIN/launchlab-cli" run vector_add --device 1 > "$E/device1.txt" 2>&1; note "run --device 1: exit $?"
[ -n "$PROBE" ] && "$PROBE" > "$E/probe.txt" 2>&1
"$BIN/launchlab_gpu_tests" > "$E/gpu_tests.log" 2>&1; note "launchlab_gpu_tests: exit $?"
while read -r args; do
  echo "== occupancy $args" >> "$E/occupancy.txt"
  "$BIN/launchlab-cli" occupancy $args >> "$E/occupancy.txt" 2>&1; note "occupancy $args: exit $?"
done <<'CASES'
vector_add --impl cuda-vectorized --block 32,96,256,1024
matmul --impl cuda-tiled-16 --block 16x16,32x32
reduce_sum --impl cuda-warp-shuffle --block 128:1024:128
transpose --impl cuda-tile-padded-64 --block 32x8,32x16,32x32
mandelbrot --impl cuda-per-pixel --block 32x8,32x32
mandelbrot --impl cuda-fma --block 32x8,32x32
CASES
"$BIN/launchlab-cli" occupancy matmul --impl cuda-tiled-16 --block 16x16,32x32 --json "$E/occupancy_matmul.json" \
  > /dev/null 2>&1
timeout 240 "$BIN/launchlab-cli" bench --section mandelbrot,memory --json "$E/bench.json" > "$E/bench.txt" 2>&1
note "bench --section mandelbrot,memory: exit $?"
"$BIN/launchlab-cli" course run atlas-mandelbrot --json "$E/atlas_mandelbrot.json" > "$E/atlas_mandelbrot.txt" 2>&1
note "course run atlas-mandelbrot: exit $?"
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/launchlab-cli" run mandelbrot --n 77 --param cols=101 \
    --reps 1 --warmup 0 > "$E/${tool}_mandelbrot_77x101.txt" 2>&1
  note "compute-sanitizer $tool mandelbrot 77x101: exit $?"
done
if [ -f .carry-dev/gui.tar.xz ]; then
  bash scripts/gpu/gui_screenshots.sh .carry-dev/gui.tar.xz "$E/window" course:atlas-mandelbrot > "$E/window.log" 2>&1
  note "window screenshots: exit $?"
fi
cat "$E/machine.txt"
