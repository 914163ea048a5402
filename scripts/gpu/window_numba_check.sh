#!/usr/bin/env bash
# Runs ON the GPU machine, in one device call, from the window's bundle (SUITES=ui scripts/gpu/bundle_suites.sh; the
# machine's python3 has numba-cuda). While OpenGL is healthy:
#   1. scripts/gpu/stage_check.sh without its faulting suite: the window's suites, the poll and stage screenshots;
#   2. the class poll under load (scripts/bench/poll_load.sh: 60 clients at once, then a flood of 10 000 requests);
#   3. a student's Numba kernel from the window's Run, beside the built-ins, with the editor and timing screenshots
#      (test_kernel_editor_python, LAUNCHLAB_EDITOR_PY_SCREENSHOTS);
#   4. the seed notebooks' own Numba kernels: course run ID --numba for every experiment whose seed file names one,
#      and a cold then a cached compile of a Numba file, timed;
# then, last, the device-imports suite, whose kernel faults on purpose (a CUDA fault breaks OpenGL on that machine).
# Usage: scripts/gpu/window_numba_check.sh BUNDLE OUT_DIR   (OUT_DIR gets stage/, numba_check.tar.gz, summary.txt)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BUNDLE=${1:?bundle}
FINAL=${2:?out dir}
mkdir -p "$FINAL/stage"
STAGE_CHECK_NO_FAULT=1 bash "$HERE/stage_check.sh" "$BUNDLE" "$FINAL/stage" > /dev/null 2>&1
source "$HERE/lib/check.sh"
ROOT=$(mktemp -d)
unpack_suites "$BUNDLE" "$ROOT"
W=$ROOT/window_numba
mkdir -p "$W/shots"
S=$FINAL/summary.txt
cp "$FINAL/stage/summary.txt" "$S"
export LAUNCHLAB_PYTHON=${LAUNCHLAB_PYTHON:-python3} LAUNCHLAB_CACHE_DIR=$ROOT/cache
{
  echo "== poll under load"
  timeout 240 bash "$REPO/scripts/bench/poll_load.sh" "$BUILD" es-coalescing 60 10000 2>&1 | tail -12
  echo "== Numba kernel from the window"
  (cd "$BUILD/tests/ui" && QT_QPA_PLATFORM=offscreen LAUNCHLAB_EDITOR_PY_SCREENSHOTS="$W/shots" timeout 300 \
    ./test_kernel_editor_python aNumbaSolutionRunsBesideTheBuiltIns > "$W/numba_window.txt" 2>&1
   echo "exit $?"; grep -E "PASS|FAIL|SKIP|Totals|Loc" "$W/numba_window.txt")
  echo "== seed kernels: course run --numba"
  for id in $(sed -n 's/^# experiments://p' "$REPO"/kernels/*/seed_*.py | tr ' ,' '\n\n' | sort -u); do
    timeout 300 "$G/bin/launchlab-cli" course run "$id" --numba > "$W/course_$id.txt" 2>&1
    echo "course run $id --numba: exit $? $(grep -c ' pass' "$W/course_$id.txt") pass lines"
  done
  echo "== Numba compile, cold then cached"
  rm -rf "$LAUNCHLAB_CACHE_DIR"
  for pass in cold cached; do
    t0=$(date +%s%N)
    "$G/bin/launchlab-cli" compile vector_add --kernel-file "$REPO/kernels/vector_add/exercise_solution.py" \
      > "$W/compile_$pass.txt" 2>&1
    echo "compile $pass: exit $? in $(( ($(date +%s%N) - t0) / 1000000 )) ms: $(tail -1 "$W/compile_$pass.txt" | sed 's/.*(//')"
  done
} >> "$S" 2>&1
ui_suites "$W" "$S" device_imports_last -R ui_test_device_imports --timeout 250
tar -C "$ROOT" -czf "$FINAL/window_numba.tar.gz" window_numba
cat "$S"
