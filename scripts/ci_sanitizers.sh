#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer with every finding fatal (UBSan does not recover; ASan's leak check is
# on), in one build folder, two parts:
#  1. the CPU-only configuration (no CUDA, no GUI) and its whole suite;
#  2. the same folder configured with the GUI (offscreen): the window's library and the suites whose code runs on
#     more than one thread (the run controller and its worker, the backends, live mode, the class poll's server on
#     the stage), built and run. LAUNCHLAB_SANITIZE_GUI=0 leaves this part out (it needs Qt 6 and QCustomPlot).
# Run by .ci/run after the README's test command; also by hand: bash scripts/ci_sanitizers.sh [BUILD_DIR]
# A data race is ThreadSanitizer's to find (scripts/ci_tsan.sh, on demand).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
BUILD=${1:-build-asan}
JOBS=${LAUNCHLAB_JOBS:-$(nproc)}
GUI_SUITES=(test_controller test_backend test_live_mode test_stage_poll test_poll)
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Debug (assertions on) with line tables only (-g1): a finding's stack trace still names each function, file and
# line, and the compile is ~25 % shorter than with full debug information (-g), which only a debugger would use.
# Unity batches (cmake/LaunchLabUnity.cmake): core's, the CLI's, the window's and the suites' files compile in
# batches, a from-scratch build's time.
configure() {  # GUI: OFF or ON
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLAUNCHLAB_CUDA=OFF "-DLAUNCHLAB_GUI=$1" \
    -DLAUNCHLAB_UNITY_BUILD=ON -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
    "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1" > /dev/null
}

printf '\n==> Configuring %s (CPU-only, ASan + UBSan)\n' "$BUILD"
configure OFF
printf '\n==> Building %s with %s jobs\n' "$BUILD" "$JOBS"
cmake --build "$BUILD" -j "$JOBS"
printf '\n==> Testing %s (sanitizer findings are fatal)\n' "$BUILD"
(cd "$BUILD" && ctest -j "$JOBS" --output-on-failure --timeout 600)

[ "${LAUNCHLAB_SANITIZE_GUI:-1}" = 1 ] || { echo "ci_sanitizers: the window left out (LAUNCHLAB_SANITIZE_GUI=0)"; exit 0; }
printf '\n==> Configuring %s with the GUI (ASan + UBSan): %s\n' "$BUILD" "${GUI_SUITES[*]}"
configure ON
cmake --build "$BUILD" -j "$JOBS" --target "${GUI_SUITES[@]}"
printf '\n==> Testing the window under ASan + UBSan (offscreen)\n'
regex="^ui_($(IFS='|'; echo "${GUI_SUITES[*]}"))\$"
(cd "$BUILD" && LSAN_OPTIONS="suppressions=$ROOT/scripts/lsan_gl.supp" QT_QPA_PLATFORM=offscreen \
  ctest -j "$JOBS" --output-on-failure --timeout 600 -R "$regex" --no-tests=error)
