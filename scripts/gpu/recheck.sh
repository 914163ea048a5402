#!/usr/bin/env bash
# Runs ON the GPU machine, in one device call: the renderer and interop suites, the window's GL views and live mode
# (scripts/gpu/window_gl_check.sh), the Mandelbrot bench section, then the GPU suite (its deliberate faults last but
# one, then the interop suite again to see whether GL survived them). The bundle comes from
# scripts/gpu/bundle_gui.sh with
#   BUNDLE_EXTRA="tests/ui/test_gl_views tests/ui/test_device_imports tests/launchlab_gl_tests
#                 tests/launchlab_gl_gpu_tests tests/launchlab_gpu_tests"
# Usage: [STEPS="gl window bench gpu"] scripts/gpu/recheck.sh BUNDLE OUT_DIR   (OUT_DIR gets recheck.tar.gz)
set -u
BUNDLE=${1:?bundle}
FINAL=$(mkdir -p "${2:?out dir}" && cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(mktemp -d)
tar -C "$ROOT" -xJf "$BUNDLE"
G=$ROOT/gui
E=$ROOT/recheck
mkdir -p "$E" "$ROOT/xdg" && chmod 700 "$ROOT/xdg"
trap 'tar -C "$ROOT" -czf "$FINAL/recheck.tar.gz" recheck; cp "$E/summary.txt" "$FINAL/" 2>/dev/null' EXIT
export LD_LIBRARY_PATH="$G/lib:${LD_LIBRARY_PATH:-}" XDG_RUNTIME_DIR="$ROOT/xdg" HOME="$ROOT"
export LAUNCHLAB_CLI="$G/bin/launchlab-cli" LAUNCHLAB_CLI_PATH="$G/bin/launchlab-cli"
export LAUNCHLAB_EXERCISES_DIR="$HERE/../../resources/exercises"
if [ ! -e /usr/share/glvnd/egl_vendor.d/10_nvidia.json ] && [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ]; then
  echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > "$ROOT/10_nvidia.json"
  export __EGL_VENDOR_LIBRARY_FILENAMES="$ROOT/10_nvidia.json"
fi
note() { echo "$*" | tee -a "$E/summary.txt"; }
want() { case " ${STEPS:-gl window bench gpu} " in *" $1 "*) return 0 ;; esac; return 1; }
xids() { (dmesg 2>/dev/null || journalctl -k --no-pager 2>/dev/null) | grep -i "xid" | tail -20 > "$E/xids_$1.txt"; }
run() {  # run NAME SECONDS CMD...: its output in NAME.txt, its last line and exit status in the summary
  local name=$1 secs=$2; shift 2
  local t0=$SECONDS
  timeout "$secs" "$@" > "$E/$name.txt" 2>&1
  local rc=$?
  note "$name: exit $rc in $((SECONDS - t0)) s; $(grep -E 'PASSED|FAILED|tests? passed|Totals' "$E/$name.txt" | tail -1)"
}
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,uuid,clocks.max.sm --format=csv,noheader
} > "$E/machine.txt" 2>&1
note "== $(tr '\n' ' ' < "$E/machine.txt")"
xids start
want gl && run gl_tests 120 "$G/bin/launchlab_gl_tests"
want gl && run gl_gpu_tests_before 120 "$G/bin/launchlab_gl_gpu_tests"
if want window; then
  t0=$SECONDS
  bash "$HERE/window_gl_check.sh" "$BUNDLE" "$E" > "$E/window_gl_check.txt" 2>&1
  note "window_gl_check: exit $? in $((SECONDS - t0)) s"
  grep -E "^(screenshot|live:|Totals)" "$E/window_gl_check.txt" | tee -a "$E/summary.txt"
  xids after_window
fi
if want bench; then
  run bench_mandelbrot 150 "$G/bin/launchlab-cli" bench --section mandelbrot --json "$E/bench_mandelbrot.json"
  grep -h "mandelbrot" "$E/bench_mandelbrot.txt" | tee -a "$E/summary.txt"
fi
if want gpu; then
  run gpu_tests 300 "$G/bin/launchlab_gpu_tests"
  run gl_gpu_tests_after 120 "$G/bin/launchlab_gl_gpu_tests"
  xids end
fi
