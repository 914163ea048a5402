#!/usr/bin/env bash
# On the build machine: a Release build for the GPU machine, and the lean folder .carry/ that the device tool carries
# (binaries + libgomp). Usage: scripts/gpu/prepare_carry.sh [CUDA_ARCHS]
# LAUNCHLAB_CARRY_BUILD=build-gpu-gui builds the test binaries in the CUDA + GUI folder that scripts/gpu/bundle_gui.sh
# uses, so the CUDA sources compile once for both.
set -eu
cd "$(dirname "$0")/../.."
ARCHS=${1:-90}
BUILD=${LAUNCHLAB_CARRY_BUILD:-build-gpu}
GUI=OFF
[ "$BUILD" = build-gpu ] || GUI=ON
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLAUNCHLAB_GUI=$GUI -DLAUNCHLAB_CUDA=ON \
  -DLAUNCHLAB_CUDA_ARCHS="$ARCHS" > /dev/null
ninja -C "$BUILD" launchlab-cli launchlab_core_tests launchlab_kernel_tests launchlab_cli_tests launchlab_gpu_tests
rm -rf .carry/bin .carry/lib && mkdir -p .carry/bin .carry/lib
cp "$BUILD"/app/launchlab-cli "$BUILD"/tests/launchlab_*_tests .carry/bin/
# The CLI suite's helper (a writer it kills mid-write) must sit next to it.
mkdir -p .carry/bin/helpers && cp "$BUILD"/tests/atomic_write_helper .carry/bin/helpers/
strip .carry/bin/* || true
# Every shared library the CLI links (libgomp, libarchive and its compressors, ...) except the C library's own,
# which the GPU machine has: it may lack the others.
ldd .carry/bin/launchlab-cli | awk '$3 ~ /^\// {print $3}' | grep -v -E '/(libc|libm|libpthread|libdl|librt)\.so' |
  xargs -r -I{} cp -L {} .carry/lib/
du -sh .carry
