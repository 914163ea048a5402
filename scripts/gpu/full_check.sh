#!/usr/bin/env bash
# Runs ON the GPU machine: every GPU check of a build, in two parts that each fit one device call (10 minutes), in
# the order the machine needs: everything that needs a healthy OpenGL first, the tests that fault on purpose last
# (a CUDA fault in any process breaks GL there until the machine is fresh).
#   part 1: renderer + interop suites, the stage screenshots with the GPU, hardware counters (CUPTI), the interop
#           crossover (bench-render), then the window's GL views, live mode, device imports and the GL check after a
#           real fault (scripts/gpu/window_gl_check.sh: its fault comes last);
#   part 2: the exercise checks under compute-sanitizer, then the whole GPU suite (its deliberate faults included)
#           and the interop suite again;
#   part gl: part 1's GL suites, bench-render and window GL check only.
# The bundle comes from scripts/gpu/bundle_gui.sh with
#   BUNDLE_EXTRA="tests/ui/test_gl_views tests/ui/test_device_imports tests/ui/test_gl_canary tests/launchlab_gl_tests
#                 tests/launchlab_gl_gpu_tests tests/launchlab_gpu_tests"
# and CUPTI's three libraries (libcupti.so.13, libnvperf_host.so, libnvperf_target.so from the toolkit's lib64)
# packed flat in CUPTI_TAR (default: cupti.tar.xz beside the bundle), unpacked into the bundle's gui/cupti.
# Usage: scripts/gpu/full_check.sh 1|2|gl BUNDLE OUT_DIR
#   OUT_DIR gets full_check_PART.tar.gz (every script's tarball and log) and summary_PART.txt.
# STAGE_SHOTS: the experiments or workloads photographed on the stage (1280x720, presentation mode).
set -u
PART=${1:?part}
BUNDLE=$(cd "$(dirname "${2:?bundle}")" && pwd)/$(basename "$2")
FINAL=${3:?out dir}
OUTDIR=$(mktemp -d)/full_check_$PART
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(mktemp -d)
tar -C "$ROOT" -xJf "$BUNDLE"
G=$ROOT/gui
mkdir -p "$OUTDIR" "$FINAL" "$G/cupti"
trap 'tar -C "$(dirname "$OUTDIR")" -czf "$FINAL/full_check_$PART.tar.gz" "full_check_$PART"' EXIT
CUPTI_TAR=${CUPTI_TAR:-$(dirname "$BUNDLE")/cupti.tar.xz}
[ -f "$CUPTI_TAR" ] && tar -C "$G/cupti" --strip-components=1 -xJf "$CUPTI_TAR"
export LAUNCHLAB_KERNELS_DIR="$HERE/../../kernels"
t() {  # a step, then its exit status and time on one line
  local t0=$SECONDS rc
  "$@"
  rc=$?
  echo "== $(basename "$1") ${2:-}: exit $rc in $((SECONDS - t0)) s" | tee -a "$OUTDIR/summary.txt"
}
if [ "$PART" = 1 ]; then
  STEPS=gl t bash "$HERE/recheck.sh" "$BUNDLE" "$OUTDIR/gl" > "$OUTDIR/gl.txt" 2>&1
  export SHOT_MODES=presentation SHOT_SIZES=1280x720
  # CUPTI on the library path: the memory lessons' shots measure their counters (in the window's worker).
  LD_LIBRARY_PATH="$G/cupti:${LD_LIBRARY_PATH:-}" t bash "$HERE/gui_screenshots.sh" "$BUNDLE" "$OUTDIR" \
    ${STAGE_SHOTS:-course:atlas-mandelbrot}
  # The wave-and-tail lesson: one block more than 8 per SM of an H200 (1057 x 256 threads), traced.
  LD_LIBRARY_PATH="$G/lib" t "$G/bin/launchlab-cli" run vector_add --n 2^26 --impl cuda-grid-stride --block 256 \
    --grid 1057 --trace-blocks --save-run "$ROOT/tail.llrun" > "$OUTDIR/tail_run.txt" 2>&1
  SHOT_TAG=_tail SHOT_ARGS="--open $ROOT/tail.llrun" t bash "$HERE/gui_screenshots.sh" "$BUNDLE" "$OUTDIR" vector_add
  SHOT_TAG=_live SHOT_ARGS="--live" t bash "$HERE/gui_screenshots.sh" "$BUNDLE" "$OUTDIR" monte_carlo_pi
  unset SHOT_MODES SHOT_SIZES
  CUPTI_DIR="$G/cupti" t bash "$HERE/counters_check.sh" "$G/bin" "$OUTDIR/counters" > "$OUTDIR/counters.txt" 2>&1
  LD_LIBRARY_PATH="$G/lib" t timeout 180 "$G/bin/launchlab-cli" bench-render --json "$OUTDIR/bench_render.json" \
    > "$OUTDIR/bench_render.txt" 2>&1
  # NO_FAULTS=1 leaves out the window's GL check, whose tests fault on purpose (a later call on the same machine
  # would find GL broken).
  [ -n "${NO_FAULTS:-}" ] || t bash "$HERE/window_gl_check.sh" "$BUNDLE" "$OUTDIR" > "$OUTDIR/window_gl_check.txt" 2>&1
elif [ "$PART" = gl ]; then
  # Only the GL path: its suites, the interop crossover and the window's GL check after a real fault.
  STEPS=gl t bash "$HERE/recheck.sh" "$BUNDLE" "$OUTDIR/gl" > "$OUTDIR/gl.txt" 2>&1
  LD_LIBRARY_PATH="$G/lib" t timeout 180 "$G/bin/launchlab-cli" bench-render --json "$OUTDIR/bench_render.json" \
    > "$OUTDIR/bench_render.txt" 2>&1
  t bash "$HERE/window_gl_check.sh" "$BUNDLE" "$OUTDIR" > "$OUTDIR/window_gl_check.txt" 2>&1
else
  t bash "$HERE/check_exercises.sh" "$G/bin" "$OUTDIR/exercises" > "$OUTDIR/exercises.txt" 2>&1
  STEPS=gpu t bash "$HERE/recheck.sh" "$BUNDLE" "$OUTDIR/gpu" > "$OUTDIR/gpu.txt" 2>&1
fi
for f in "$OUTDIR"/*/summary.txt "$OUTDIR"/summary.txt; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done |
  tee "$FINAL/summary_$PART.txt"
