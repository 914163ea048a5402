#!/usr/bin/env bash
# On the build machine: a Release build without GUI for the GPU machine, and the lean folder .carry/ that the
# device tool carries (binaries + libgomp). Usage: scripts/gpu/prepare_carry.sh [CUDA_ARCHS]
set -eu
cd "$(dirname "$0")/../.."
ARCHS=${1:-90}
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLAUNCHLAB_GUI=OFF -DLAUNCHLAB_CUDA=ON \
  -DLAUNCHLAB_CUDA_ARCHS="$ARCHS" > /dev/null
ninja -C build-gpu
rm -rf .carry && mkdir -p .carry/bin .carry/lib
cp build-gpu/app/launchlab-cli build-gpu/tests/launchlab_*_tests .carry/bin/
strip .carry/bin/* || true
cp /usr/lib/x86_64-linux-gnu/libgomp.so.1 .carry/lib/
du -sh .carry
