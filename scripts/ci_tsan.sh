#!/usr/bin/env bash
# ThreadSanitizer over the window's threads, on demand (not in .ci/run: its from-scratch build and run, about 5
# minutes on 2 cores, would take CI's 25 past its 30; last result in docs/evidence/sanitizers-and-memcheck.md): the
# CPU-only, GUI-on configuration built with -fsanitize=thread, and the suites whose code runs on several threads (the
# run controller and its worker, the backends, live mode, the GL views' render thread) run offscreen with every
# report fatal.
# Usage: bash scripts/ci_tsan.sh [BUILD_DIR]   (LAUNCHLAB_JOBS: build jobs)
# Qt and libgomp are not built with ThreadSanitizer, so it cannot see the synchronisation inside them (a queued
# signal's mutex, an OpenMP barrier): scripts/ci_tsan.supp suppresses a race with a frame in Qt's libraries, and the
# worker's OpenMP regions run on one thread (below).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${1:-build-tsan}
JOBS=${LAUNCHLAB_JOBS:-$(nproc)}
SUITES=(test_controller test_backend test_live_mode test_gl_views)
printf '\n==> Configuring %s (CPU-only, GUI, ThreadSanitizer)\n' "$BUILD"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLAUNCHLAB_CUDA=OFF -DLAUNCHLAB_GUI=ON \
  -DLAUNCHLAB_UNITY_BUILD=ON -DCMAKE_CXX_FLAGS_DEBUG=-g1 "-DCMAKE_CXX_FLAGS=-fsanitize=thread -O1" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread > /dev/null
printf '\n==> Building %s with %s jobs: %s\n' "$BUILD" "$JOBS" "${SUITES[*]}"
cmake --build "$BUILD" -j "$JOBS" --target "${SUITES[@]}"
printf '\n==> Testing under ThreadSanitizer (offscreen; a report is fatal)\n'
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/ci_tsan.supp"
# libgomp is not built with TSan either: its end-of-region barrier is invisible, so a value the main thread writes
# after a parallel loop reads as racing the team's last reads (and the team's stacks cannot be restored for the
# suppressions to match). The worker's OpenMP regions run on one thread here; the window's own threads are what this
# run checks (the CPU implementations' parallel loops are checked against the serial reference by the suites).
export OMP_NUM_THREADS=1
regex="^ui_($(IFS='|'; echo "${SUITES[*]}"))\$"
(cd "$BUILD" && QT_QPA_PLATFORM=offscreen ctest -j "$JOBS" --output-on-failure --timeout 900 -R "$regex" --no-tests=error)
