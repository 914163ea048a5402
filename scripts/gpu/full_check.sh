#!/usr/bin/env bash
# Runs ON the GPU machine: every GPU check of a build, in two parts that each fit one device call (10 minutes), in
# the order the machine needs: everything that needs a healthy OpenGL first, the tests that fault on purpose last
# (a CUDA fault in any process breaks GL there until the machine is fresh).
#   part 1: renderer + interop suites, the stage screenshots with the GPU, hardware counters (CUPTI), the interop
#           crossover (bench-render), then the window's GL views, live mode, device imports and the GL check after a
#           real fault (scripts/gpu/window_gl_check.sh: its fault comes last);
#   part 2: the exercise checks under compute-sanitizer, then the whole GPU suite (its deliberate faults included)
#           and the interop suite again.
# The bundle comes from scripts/gpu/bundle_gui.sh with
#   BUNDLE_EXTRA="tests/ui/test_gl_views tests/ui/test_device_imports tests/ui/test_gl_canary tests/launchlab_gl_tests
#                 tests/launchlab_gl_gpu_tests tests/launchlab_gpu_tests"
# and CUPTI's three libraries (libcupti.so.13, libnvperf_host.so, libnvperf_target.so from the toolkit's lib64)
# packed flat in CUPTI_TAR (default: cupti.tar.xz beside the bundle), unpacked into the bundle's gui/cupti.
# Usage: scripts/gpu/full_check.sh 1|2 BUNDLE OUT_DIR   (OUT_DIR gets one tarball per script and summary files)
set -u
PART=${1:?part}
BUNDLE=$(cd "$(dirname "${2:?bundle}")" && pwd)/$(basename "$2")
OUTDIR=${3:?out dir}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(mktemp -d)
tar -C "$ROOT" -xJf "$BUNDLE"
G=$ROOT/gui
mkdir -p "$OUTDIR" "$G/cupti"
CUPTI_TAR=${CUPTI_TAR:-$(dirname "$BUNDLE")/cupti.tar.xz}
[ -f "$CUPTI_TAR" ] && tar -C "$G/cupti" --strip-components=1 -xJf "$CUPTI_TAR"
export LAUNCHLAB_KERNELS_DIR="$HERE/../../kernels"
t() { local t0=$SECONDS; "$@"; echo "== $(basename "$1") ${2:-}: exit $? in $((SECONDS - t0)) s"; }
if [ "$PART" = 1 ]; then
  STEPS=gl t bash "$HERE/recheck.sh" "$BUNDLE" "$OUTDIR/gl" > "$OUTDIR/gl.txt" 2>&1
  SHOT_MODES=presentation t bash "$HERE/gui_screenshots.sh" "$BUNDLE" "$OUTDIR" ${STAGE_SHOTS:-course:atlas-mandelbrot}
  CUPTI_DIR="$G/cupti" t bash "$HERE/counters_check.sh" "$G/bin" "$OUTDIR/counters" > "$OUTDIR/counters.txt" 2>&1
  LD_LIBRARY_PATH="$G/lib" t timeout 120 "$G/bin/launchlab-cli" bench-render --json "$OUTDIR/bench_render.json" \
    > "$OUTDIR/bench_render.txt" 2>&1
  t bash "$HERE/window_gl_check.sh" "$BUNDLE" "$OUTDIR" > "$OUTDIR/window_gl_check.txt" 2>&1
else
  t bash "$HERE/check_exercises.sh" "$G/bin" "$OUTDIR/exercises" > "$OUTDIR/exercises.txt" 2>&1
  STEPS=gpu t bash "$HERE/recheck.sh" "$BUNDLE" "$OUTDIR/gpu" > "$OUTDIR/gpu.txt" 2>&1
fi
for f in "$OUTDIR"/*/summary.txt; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
