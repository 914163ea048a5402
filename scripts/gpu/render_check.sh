#!/usr/bin/env bash
# Runs ON the GPU machine: the GPU-rendered plots (docs/ARCHITECTURE.md, "GPU-rendered plots").
# The interop tests, one PNG of each view by interop and by host upload, then bench-render.
# Usage: scripts/gpu/render_check.sh BIN_DIR GL_LIB_DIR OUT_DIR [quick]
#   BIN_DIR: launchlab-cli and launchlab_gl_gpu_tests (a CUDA build); GL_LIB_DIR: glvnd's loader libraries
#   (libEGL.so.1, libOpenGL.so.0, libGLdispatch.so.0, libpng16.so.16: copies from the build machine, or the Debian
#   packages libegl1 libopengl0 libglvnd0 libpng16-16 unpacked with dpkg -x). The NVIDIA driver brings
#   libEGL_nvidia.so.0; without glvnd's vendor file for it, one is written here.
set -u
BIN=$(cd "${1:?bin dir}" && pwd)
GLLIB=$(cd "${2:?gl lib dir}" && pwd)
OUT=${3:?out dir}
MODE=${4:-full}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$GLLIB:${LD_LIBRARY_PATH:-}"
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
egl_vendor_file "$OUT"
CLI="$BIN/launchlab-cli"
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} > "$OUT/machine.txt" 2>&1
status=0
echo "== interop tests"
"$BIN/launchlab_gl_gpu_tests" > "$OUT/gl_gpu_tests.txt" 2>&1 || status=1
tail -3 "$OUT/gl_gpu_tests.txt"
echo "== renders"
render() {  # NAME WORKLOAD-ARGS…
  local name=$1
  shift
  for path in interop host; do
    local extra=""
    [ "$path" = host ] && extra="--host-upload"
    "$CLI" render "$@" --size 1920x1080 --png "$OUT/$name-$path.png" $extra >> "$OUT/render.txt" 2>&1 || status=1
  done
}
render waveform pulse_waveform --n 2^24 --impl cuda-fused --output waveform
render waveform-zoom pulse_waveform --n 2^24 --impl cuda-fused --output waveform --range 8000000:8100000
render histogram histogram --n 2^24 --impl cuda-shared-privatized --output counts
render image mandelbrot --impl cuda-per-pixel --output iters
render points monte_carlo_pi --impl cuda-philox --output points
cat "$OUT/render.txt"
echo "== bench-render"
if [ "$MODE" = quick ]; then q=--quick; else q=; fi
"$CLI" bench-render $q --json "$OUT/bench_render.json" > "$OUT/bench_render.txt" 2>&1 || status=1
cat "$OUT/bench_render.txt"
exit $status
