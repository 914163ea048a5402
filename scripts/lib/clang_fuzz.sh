# Sourced by scripts/ci_fuzz.sh: clang and the fuzzers' configuration (CPU-only, no GUI, every target under ASan +
# UBSan with libFuzzer's coverage, cmake/LaunchLabFuzz.cmake). With -DLAUNCHLAB_TESTS=ON the same configuration could
# also run the suite under the sanitizers (one build instead of two in CI); not used yet: the suite has not been
# built with clang 14 and libstdc++ 12 together.
CXX_FUZZ=${LAUNCHLAB_FUZZ_CXX:-clang++-14}

clang_fuzz_install() {  # clang and its libFuzzer/OpenMP runtimes, from Debian, when missing
  if command -v "$CXX_FUZZ" > /dev/null && "$CXX_FUZZ" -print-file-name=libclang_rt.fuzzer-x86_64.a | grep -q /; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "needs $CXX_FUZZ and its libFuzzer runtime: apt-get install clang-14 libclang-rt-14-dev libomp-14-dev" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends clang-14 libclang-rt-14-dev libomp-14-dev
}

clang_fuzz_configure() {  # BUILD_DIR [extra cmake args]: configures unless BUILD_DIR already has this configuration
  local build=$1; shift
  if [ -f "$build/CMakeCache.txt" ] && grep -q '^LAUNCHLAB_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
    return 0
  fi
  local launcher=()
  command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  printf '\n==> Configuring %s (CPU-only, clang, ASan + UBSan + libFuzzer coverage)\n' "$build"
  cmake -S . -B "$build" -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O1 \
    -DCMAKE_CXX_COMPILER="$CXX_FUZZ" -DLAUNCHLAB_CUDA=OFF -DLAUNCHLAB_GUI=OFF -DLAUNCHLAB_FUZZ=ON "$@" > /dev/null
}
