#!/usr/bin/env bash
# Runs ON the GPU machine, in one device call: the renderer and interop suites, the window's GL views and live mode
# (scripts/gpu/window_gl_check.sh), the Mandelbrot bench section, then the GPU suite (its deliberate faults last but
# one, then the interop suite again to see whether GL survived them). The bundle comes from
# scripts/gpu/bundle_gui.sh with
#   BUNDLE_EXTRA="tests/ui/test_gl_views tests/ui/test_device_imports tests/ui/test_gl_canary tests/launchlab_gl_tests
#                 tests/launchlab_gl_gpu_tests tests/launchlab_gpu_tests"
# Usage: [STEPS="gl window bench gpu"] scripts/gpu/recheck.sh BUNDLE OUT_DIR
#   (OUT_DIR gets recheck.tar.gz and summary.txt)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/lib/check.sh"
BUNDLE=$(cd "$(dirname "${1:?bundle}")" && pwd)/$(basename "$1")
ROOT=$(mktemp -d)
tar -C "$ROOT" -xJf "$BUNDLE"
G=$ROOT/gui
check_begin recheck "$G/bin" "${2:?out dir}"
mkdir -p "$ROOT/xdg" && chmod 700 "$ROOT/xdg"
export XDG_RUNTIME_DIR="$ROOT/xdg" HOME="$ROOT" LAUNCHLAB_CLI="$C" LAUNCHLAB_CLI_PATH="$C"
export LAUNCHLAB_KERNELS_DIR="$HERE/../../kernels"
egl_vendor_file "$ROOT"
want() { case " ${STEPS:-gl window bench gpu} " in *" $1 "*) return 0 ;; esac; return 1; }
xids() { (dmesg 2>/dev/null || journalctl -k --no-pager 2>/dev/null) | grep -i "xid" | tail -20 > "$E/xids_$1.txt"; }
run() {  # run NAME SECONDS CMD...: its output in NAME.txt, its exit status, time and verdict line in the summary
  local name=$1 secs=$2; shift 2
  local t0=$SECONDS
  timeout "$secs" "$@" > "$E/$name.txt" 2>&1
  local rc=$?
  note "$name: exit $rc in $((SECONDS - t0)) s; $(grep -E 'PASSED|FAILED|tests? passed|Totals' "$E/$name.txt" | tail -1)"
}
nvidia-smi --query-gpu=name,driver_version,uuid,clocks.max.sm --format=csv,noheader > "$E/machine.txt" 2>&1
xids start
want gl && run gl_tests 120 "$G/bin/launchlab_gl_tests"
want gl && run gl_gpu_tests_before 120 "$G/bin/launchlab_gl_gpu_tests"
if want window; then
  t0=$SECONDS
  bash "$HERE/window_gl_check.sh" "$BUNDLE" "$E" > "$E/window_gl_check.txt" 2>&1
  note "window_gl_check: exit $? in $((SECONDS - t0)) s"
  grep -E "^(screenshot|live:|Totals)" "$E/window_gl_check.txt" | tee -a "$summary"
  xids after_window
fi
if want bench; then
  run bench_mandelbrot 150 "$C" bench --section mandelbrot --json "$E/bench_mandelbrot.json"
  grep -h "mandelbrot" "$E/bench_mandelbrot.txt" | tee -a "$summary"
fi
if want gpu; then
  run gpu_tests 300 "$G/bin/launchlab_gpu_tests"
  run gl_gpu_tests_after 120 "$G/bin/launchlab_gl_gpu_tests"
  xids end
fi
