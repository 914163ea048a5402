#!/usr/bin/env bash
# Runs ON the GPU machine: `launchlab-cli check` of every exercise's reference solution at its check size
# (Exercise::checkN) under compute-sanitizer, through the GPU tests that iterate the exercise registry (each
# solution clean, progress lines, the time limit's message). Each check's wall time is printed for the record:
# every one should be well under 30 s.
# Usage: scripts/gpu/check_exercises.sh BIN_DIR OUT_DIR [KERNELS_DIR]
#   BIN_DIR holds launchlab-cli and launchlab_gpu_tests; a solution is KERNELS_DIR/<workload>/exercise*_solution.cu
#   (default: this checkout's kernels/). Summary on stdout and in OUT_DIR/check_exercises.tar.gz.
set -u
. "$(dirname "$0")/lib/check.sh"
check_begin check_exercises "${1:?bin dir}" "${2:?out dir}"
export LAUNCHLAB_KERNELS_DIR=${3:-$(cd "$(dirname "$0")/../../kernels" && pwd)}
export LAUNCHLAB_CLI="$C"
timeout 1200 "$BIN/launchlab_gpu_tests" --gtest_filter='CheckGpu.*' > "$E/gpu_tests_check.txt" 2>&1
note "launchlab_gpu_tests --gtest_filter='CheckGpu.*': exit $?"
grep -E '^exercise |^\[  (PASSED|FAILED|  SKIPPED) ' "$E/gpu_tests_check.txt" | tee -a "$summary"
