#!/usr/bin/env bash
# The libFuzzer targets of tests/fuzz (the .npy reader, the worker's stdin, the worker protocol's decoders, the
# parsers of typed text, the preset reader), each run for a bounded time on a copy of its seed corpus, under ASan +
# UBSan. Any finding (crash, sanitizer report, leak, timeout, out-of-memory) fails the script, which prints the
# input. Run by .ci/run after scripts/ci_sanitizers.sh; by hand: bash scripts/ci_fuzz.sh [BUILD_DIR]
# Environment: LAUNCHLAB_FUZZ_SECONDS per fuzzer (default 40), LAUNCHLAB_JOBS the build jobs and parallel fuzzers.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${1:-build-fuzz}
JOBS=${LAUNCHLAB_JOBS:-$(nproc)}
SECONDS_EACH=${LAUNCHLAB_FUZZ_SECONDS:-40}
CXX_FUZZ=${LAUNCHLAB_FUZZ_CXX:-clang++-14}
FUZZERS=(fuzz_npy fuzz_worker fuzz_wire fuzz_parse fuzz_run_file fuzz_sweep fuzz_ptx fuzz_preset)

if ! command -v "$CXX_FUZZ" > /dev/null || ! "$CXX_FUZZ" -print-file-name=libclang_rt.fuzzer-x86_64.a | grep -q /; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "ci_fuzz: needs $CXX_FUZZ and its libFuzzer runtime: apt-get install clang-14 libclang-rt-14-dev libomp-14-dev" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends clang-14 libclang-rt-14-dev libomp-14-dev
fi

LAUNCHER=()
command -v ccache > /dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# ccache caches a compile that uses a precompiled header (cmake/LaunchLabPch.cmake) only with these sloppinesses.
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
printf '\n==> Configuring %s (CPU-only, clang, libFuzzer + ASan + UBSan)\n' "$BUILD"
cmake -S . -B "$BUILD" -G Ninja "${LAUNCHER[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_CXX_COMPILER="$CXX_FUZZ" \
  -DLAUNCHLAB_CUDA=OFF -DLAUNCHLAB_GUI=OFF -DLAUNCHLAB_TESTS=OFF -DLAUNCHLAB_FUZZ=ON \
  -DLAUNCHLAB_UNITY_BUILD=ON > /dev/null
printf '\n==> Building the fuzzers with %s jobs\n' "$JOBS"
cmake --build "$BUILD" -j "$JOBS" --target fuzzers

# One fuzzer: a fresh copy of its corpus (the committed seeds stay as they are), findings written to $BUILD/findings.
run_one() {
  local name=$1 exe="$BUILD/tests/fuzz/$1" work="$BUILD/fuzz-work/$1"
  if [ ! -x "$exe" ]; then
    echo "$name: not built (fuzz_preset needs Qt 6 Core): skipped"
    return 0
  fi
  rm -rf "$work" && mkdir -p "$work/corpus" "$BUILD/findings"
  cp tests/fuzz/corpus/"$name"/* "$work/corpus/"
  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     "$exe" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=16384 \
     -print_final_stats=1 -artifact_prefix="$BUILD/findings/$name-" "$work/corpus" > "$work/log" 2>&1; then
    echo "$name: no finding ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$') inputs in ${SECONDS_EACH}s)"
  else
    echo "$name: FINDING"
    tail -n 60 "$work/log"
    return 1
  fi
}
export -f run_one
export BUILD SECONDS_EACH

printf '\n==> Fuzzing: %s, %ss each, %s at a time\n' "${FUZZERS[*]}" "$SECONDS_EACH" "$JOBS"
status=0
printf '%s\n' "${FUZZERS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_one {}' || status=$?
if [ "$status" -ne 0 ]; then
  echo "ci_fuzz: findings (reproduce with: $BUILD/tests/fuzz/<fuzzer> <file>):" >&2
  for f in "$BUILD"/findings/*; do
    [ -e "$f" ] || continue
    echo "--- $f (base64):" >&2
    base64 "$f" | head -c 4000 >&2
    echo >&2
  done
  exit 1
fi
echo "ci_fuzz: no findings"
