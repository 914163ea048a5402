#!/usr/bin/env bash
# Runs ON the GPU machine, in one device call: the window's suite (healthy GL first, the deliberate fault left out),
# the window's CPU timings against launchlab-cli's through both window paths (ui_test_cpu_timing, with its QINFO
# lines), screenshots with the timings the window shows (--print-timings), and the memory lessons' counters measured
# from the kernels' accesses, as root without CUPTI's libraries (the fallback) and as a user made with useradd.
# Usage: scripts/gpu/window_recheck.sh BUNDLE OUT_DIR   (BUNDLE: SUITES=ui scripts/gpu/bundle_suites.sh)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUNDLE=${1:?bundle}
OUT=${2:?out dir}
mkdir -p "$OUT"
SKIP_FAULT=1 SUITE_JOBS=${SUITE_JOBS:-4} timeout 300 bash "$HERE/window_suite.sh" "$BUNDLE" "$OUT" > "$OUT/suite_run.txt" 2>&1
cat "$OUT/window_suite.txt"
source "$HERE/lib/check.sh"
ROOT=$(mktemp -d)
unpack_suites "$BUNDLE" "$ROOT"
(cd "$BUILD/tests/ui" && QT_QPA_PLATFORM=offscreen timeout 200 ./test_cpu_timing) > "$OUT/cpu_timing.txt" 2>&1
grep -E "QINFO|FAIL!|Totals" "$OUT/cpu_timing.txt" | cut -c1-220 | head -40
SHOT_SIZES=1280x720 SHOT_ARGS="--print-timings" timeout 200 bash "$HERE/gui_screenshots.sh" "$BUNDLE" "$OUT" \
  course:s3-caching course:es-coalescing course:tp32-histogram > "$OUT/shots.txt" 2>&1
grep -E "^screenshot" "$OUT/shots.txt"
C="$G/bin/launchlab-cli"
for s in 1 32; do
  timeout 60 "$C" profile coalescing --param stride=$s --counters --metrics sectors_per_request 2>&1 |
    grep -E "counters|sectors_per_request|verification|pass|FAIL" | head -8
done
timeout 120 "$C" sweep coalescing --impl cuda-strided --param stride=1:32:1 --counters=accesses \
  --metrics sectors_per_request > "$OUT/sweep_counters.txt" 2>&1
echo "counter sweep: exit $?"; head -40 "$OUT/sweep_counters.txt" | cut -c1-160
id student > /dev/null 2>&1 || useradd -m student
S=/tmp/student-gui && rm -rf "$S" && cp -r "$G" "$S" && chmod -R a+rX "$S"
su student -s /bin/bash -c "LD_LIBRARY_PATH=$S/lib timeout 120 $S/bin/launchlab-cli profile transpose --n 4096 \
  --impl cuda-tile,cuda-tile-padded --counters --metrics bank_conflicts,sectors_per_request" > "$OUT/student_transpose.txt" 2>&1
echo "student transpose: exit $?"; grep -E "counters|bank_conflicts|sectors|pass|FAIL" "$OUT/student_transpose.txt" | head -12
