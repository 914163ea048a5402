#!/usr/bin/env bash
# Runs ON the GPU machine, in one device call: the window as a class sees it with the GPU. In order, while OpenGL is
# healthy: the window's suites (the stage's legibility walk prints its key-to-stage times), the class poll's
# screenshots (question with its QR code and live count, the reveal with the class's answers) and screenshots of
# experiments on the stage with --print-timings; last, the device-imports suite alone, because its kernel faults on
# purpose and a CUDA fault in any process breaks OpenGL on that machine until it is fresh.
# Usage: scripts/gpu/stage_check.sh BUNDLE OUT_DIR   (BUNDLE: SUITES=ui scripts/gpu/bundle_suites.sh)
# OUT_DIR gets summary.txt and stage_check.tar.gz (the logs and PNGs).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
source "$HERE/lib/check.sh"
BUNDLE=${1:?bundle}
FINAL=${2:?out dir}
ROOT=$(mktemp -d)
unpack_suites "$BUNDLE" "$ROOT"
OUT=$ROOT/stage_check
mkdir -p "$OUT/shots" "$FINAL"
export FONTCONFIG_FILE="$G/fonts.conf" XDG_RUNTIME_DIR="$ROOT/xdg" HOME="$ROOT"
S=$OUT/summary.txt
trap 'cp "$S" "$FINAL/summary.txt"; tar -C "$ROOT" -czf "$FINAL/stage_check.tar.gz" stage_check' EXIT
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
} > "$S"
suites() { ui_suites "$OUT" "$S" "$@" --timeout 250; }  # NAME CTEST_ARGS...
# SUITES_SKIP: the suites the bundle left out (scripts/gpu/bundle_suites.sh).
skip='gl_canary|device_imports|ui_room_includes'
for t in ${SUITES_SKIP:-}; do skip="$skip|ui_${t}\$"; done
suites window_suites -L ui -j "${SUITE_JOBS:-3}" -E "$skip"
# The class poll: asking and reveal, six experiments, both projector sizes.
timeout 240 sh "$REPO/scripts/poll_screenshots.sh" "$BUILD" "$OUT/shots" > "$OUT/poll_shots.txt" 2>&1
echo "poll screenshots: exit $?, $(ls "$OUT/shots" | wc -l) files" >> "$S"
# The stage after the first run, with the timings the window shows.
for size in 1280x720 1920x1080; do
  cfg=$ROOT/screen_$size.json
  printf '{"windowFrames": false, "screens": [{"name": "s", "x": 0, "y": 0, "width": %s, "height": %s, "logicalDpi": 96, "dpr": 1}]}\n' \
    "${size%x*}" "${size#*x}" > "$cfg"
  for e in ${STAGE_EXPERIMENTS:-tp32-launch-heuristics es-col-sums es-coalescing s3-compute-pi}; do
    png=$OUT/shots/gpu_stage_${e}_$size.png
    QT_QPA_PLATFORM="offscreen:configfile=$cfg" timeout 90 "$G/bin/launchlab" --course "$e" --presentation \
      --print-timings --screenshot "$png" > "${png%.png}.log" 2>&1
    echo "stage $e $size: exit $? $(grep -E 'timing cpu-parallel' "${png%.png}.log" | sed 's/ over.*//')" >> "$S"
  done
done
# STAGE_CHECK_NO_FAULT=1: a caller with more GL work to do runs the device-imports suite itself, after it.
[ -n "${STAGE_CHECK_NO_FAULT:-}" ] || suites device_imports_last -R ui_test_device_imports
cat "$S"
