#!/usr/bin/env bash
# The CPU-only configuration built once with clang under AddressSanitizer + UndefinedBehaviorSanitizer (and libFuzzer's
# coverage instrumentation, so scripts/ci_fuzz.sh links its fuzzers from the same objects instead of compiling the
# engine a second time), and the whole suite run on it with every finding fatal (UBSan does not recover; ASan's leak
# check is on). Run by .ci/run after the README's test command; also by hand: bash scripts/ci_sanitizers.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${1:-build-asan}
JOBS=${LAUNCHLAB_JOBS:-$(nproc)}
source scripts/lib/clang_fuzz.sh
clang_fuzz_install
clang_fuzz_configure "$BUILD" -DLAUNCHLAB_TESTS=ON
printf '\n==> Building %s with %s jobs (the suite and the fuzzers)\n' "$BUILD" "$JOBS"
cmake --build "$BUILD" -j "$JOBS"
printf '\n==> Testing %s (sanitizer findings are fatal)\n' "$BUILD"
cd "$BUILD"
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest -j "$JOBS" --output-on-failure --timeout 600
