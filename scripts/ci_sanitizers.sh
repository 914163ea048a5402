#!/usr/bin/env bash
# The CPU-only configuration built with AddressSanitizer + UndefinedBehaviorSanitizer, and the whole suite run on it
# with every finding fatal (UBSan does not recover; ASan's leak check is on). Run by .ci/run after the README's test
# command; also by hand: bash scripts/ci_sanitizers.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${1:-build-asan}
JOBS=${LAUNCHLAB_JOBS:-$(nproc)}
printf '\n==> Configuring %s (CPU-only, ASan + UBSan)\n' "$BUILD"
# Debug (assertions on) with line tables only (-g1): a finding's stack trace still names each function, file and
# line, and the compile is ~25 % shorter than with full debug information (-g), which only a debugger would use.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLAUNCHLAB_CUDA=OFF -DLAUNCHLAB_GUI=OFF -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1" > /dev/null
printf '\n==> Building %s with %s jobs\n' "$BUILD" "$JOBS"
cmake --build "$BUILD" -j "$JOBS"
printf '\n==> Testing %s (sanitizer findings are fatal)\n' "$BUILD"
cd "$BUILD"
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest -j "$JOBS" --output-on-failure --timeout 600
