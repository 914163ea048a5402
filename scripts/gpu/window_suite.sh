#!/usr/bin/env bash
# Runs ON the GPU machine: the window's whole test suite (ctest label "ui") with the GPU, from the bundle of
# scripts/gpu/bundle_suites.sh. With a GPU the window runs its worker process and shows the CUDA rows, banners
# and GL views that a machine without one never shows: a window test passes only if it passes here too.
# The suites run from the build's own CTest files, at the build's absolute path (recreated here; the sources' path is
# linked to this checkout), everything that needs a healthy OpenGL first and the GL check after a real CUDA fault
# (test_gl_canary, which faults on purpose) last.
# Usage: [SKIP_FAULT=1] scripts/gpu/window_suite.sh BUNDLE OUT_DIR   (OUT_DIR gets window_suite.tar.gz and
# window_suite.txt)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/lib/check.sh"
BUNDLE=${1:?bundle}
FINAL=${2:?out dir}
ROOT=$(mktemp -d)
unpack_suites "$BUNDLE" "$ROOT"
OUT=$ROOT/window_suite
mkdir -p "$OUT" "$FINAL" "$ROOT/xdg" && chmod 700 "$ROOT/xdg"
trap 'cp "$OUT/summary.txt" "$FINAL/window_suite.txt" 2>/dev/null; tar -C "$ROOT" -czf "$FINAL/window_suite.tar.gz" window_suite' EXIT
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
  echo "build: $BUILD"
} > "$OUT/summary.txt"
status=0
suite() { ui_suites "$OUT" "$OUT/summary.txt" "$@" -L ui --timeout 300 || status=1; }  # NAME CTEST_ARGS...
suite healthy_gl -j "${SUITE_JOBS:-4}" -E 'gl_canary'
# SKIP_FAULT=1 leaves the deliberate fault for later (screenshots with a healthy GL come first): `ctest -R gl_canary`
# in $BUILD/tests/ui then.
[ -n "${SKIP_FAULT:-}" ] || suite after_fault -R 'gl_canary'
cat "$OUT/summary.txt"
exit $status
