#!/usr/bin/env bash
# Runs ON the GPU machine: the window's GL views (docs/ARCHITECTURE.md "The window's GL layer and live
# mode") on the NVIDIA driver's EGL, under Qt's offscreen platform: the GL views test, then screenshots of GL views
# (normal and in live mode) at 1280x720 and 1920x1080. The bundle comes from scripts/gpu/bundle_gui.sh with
# BUNDLE_EXTRA="tests/ui/test_gl_views tests/ui/test_device_imports tests/ui/test_gl_canary" (its lib/ holds glvnd's libEGL/libOpenGL from the build machine; the driver
# brings libEGL_nvidia.so.0, and a vendor file for it is written here when the machine has none).
# Usage: scripts/gpu/window_gl_check.sh BUNDLE OUT_DIR     (OUT_DIR gets window_gl.tar.gz: logs and PNGs)
set -u
BUNDLE=${1:?bundle}
FINAL=${2:?out dir}
ROOT=$(mktemp -d)
tar -C "$ROOT" -xJf "$BUNDLE"
G=$ROOT/gui
OUT=$ROOT/window_gl
mkdir -p "$OUT" "$FINAL" "$ROOT/xdg" && chmod 700 "$ROOT/xdg"
trap 'tar -C "$ROOT" -czf "$FINAL/window_gl.tar.gz" window_gl' EXIT
export LD_LIBRARY_PATH="$G/lib:${LD_LIBRARY_PATH:-}" QT_QPA_PLATFORM_PLUGIN_PATH="$G/platforms"
export FONTCONFIG_FILE="$G/fonts.conf" XDG_RUNTIME_DIR="$ROOT/xdg" HOME="$ROOT" QT_LOGGING_RULES="qt.qpa.*=false"
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
egl_vendor_file "$ROOT"
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} > "$OUT/machine.txt" 2>&1
status=0
if [ -x "$G/bin/test_gl_views" ]; then
  for size in 1280x720 1920x1080; do
    w=${size%x*} h=${size#*x}
    cfg=$ROOT/screen_$size.json
    printf '{"windowFrames": false, "screens": [{"name": "s", "x": 0, "y": 0, "width": %s, "height": %s, "logicalDpi": 96, "dpr": 1}]}\n' "$w" "$h" > "$cfg"
    mkdir -p "$OUT/shots"
    LAUNCHLAB_GL_SHOTS="$OUT/shots" QT_QPA_PLATFORM="offscreen:configfile=$cfg" timeout 300 "$G/bin/test_gl_views" \
      > "$OUT/test_gl_views_$size.txt" 2>&1 || status=1
    tail -3 "$OUT/test_gl_views_$size.txt"
  done
fi
# Live mode: the window's worker (its host copies uploaded once a frame; --device-imports is not used here) against --in-process (no worker: each
# output uploaded from the host copy); the fps line is printed with the screenshot.
for wl in pulse_waveform histogram monte_carlo_pi; do
  for mode in first live live-in-process; do
    extra=()
    [ "$mode" = live ] && extra=(--live)
    [ "$mode" = live-in-process ] && extra=(--live --in-process)
    QT_QPA_PLATFORM=offscreen timeout 120 "$G/bin/launchlab" --workload "$wl" "${extra[@]}" \
      --screenshot "$OUT/${wl}_$mode.png" > "$OUT/${wl}_$mode.log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || status=1
    echo "screenshot $wl $mode: exit $rc"
    grep -h "^live:" "$OUT/${wl}_$mode.log"
  done
done
# The GL check after a real CUDA fault (docs/ARCHITECTURE.md, "The GL check"): a kernel that faults in the worker,
# then GL views; they must say QCustomPlot draws them, or (GL survived) show the same frames as before the fault.
# It faults too, so it comes after everything that needs a healthy GL, and first of the faulting tests, so that its
# own fault is the one it sees.
if [ -x "$G/bin/test_gl_canary" ]; then
  LAUNCHLAB_CLI_PATH="$G/bin/launchlab-cli" QT_QPA_PLATFORM=offscreen timeout 300 "$G/bin/test_gl_canary" \
    aRealFaultThenGlViews > "$OUT/test_gl_canary_gpu.txt" 2>&1 || status=1
  grep -hE "GL before the fault|check after the fault|check at start|Totals" "$OUT/test_gl_canary_gpu.txt"
fi
# Device imports (off by default in the window): a local worker's GPU outputs drawn from its device memory,
# and a faulting kernel. Last: on these Hopper machines a CUDA fault in another process leaves GL frames stalled and
# wrong (docs/evidence/window-on-gpu.md).
if [ -x "$G/bin/test_device_imports" ]; then
  mkdir -p "$OUT/shots"
  LAUNCHLAB_GL_SHOTS="$OUT/shots" LAUNCHLAB_CLI_PATH="$G/bin/launchlab-cli" QT_QPA_PLATFORM=offscreen timeout 300 "$G/bin/test_device_imports" \
    > "$OUT/test_device_imports.txt" 2>&1 || status=1
  tail -3 "$OUT/test_device_imports.txt"
fi
exit $status
