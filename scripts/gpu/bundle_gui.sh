#!/usr/bin/env bash
# On the build machine: bundle the window for the GPU machine, which has no Qt: `launchlab` and `launchlab-cli` from
# a CUDA + GUI build, the shared libraries ldd lists for them and for Qt's offscreen platform plugin (all but glibc's
# own, libstdc++ and libgcc_s, which the GPU machine has), DejaVu fonts and a fonts.conf, packed as one file:
# .carry/gui.tar.xz. On the GPU machine, scripts/gpu/gui_screenshots.sh unpacks it and takes screenshots.
# Usage: scripts/gpu/bundle_gui.sh [BUILD_DIR]   (default: build-gpu-gui, configured here for sm_90; a CPU-only GUI
# build such as build-dev carries the window's GL views without CUDA)
set -eu
cd "$(dirname "$0")/../.."
BUILD=${1:-build-gpu-gui}
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLAUNCHLAB_CUDA=ON -DLAUNCHLAB_GUI=ON \
    -DLAUNCHLAB_CUDA_ARCHS=90 > /dev/null
fi
ninja -C "$BUILD" launchlab launchlab-cli
STAGE=$(mktemp -d)/gui
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/platforms" "$STAGE/fonts"
cp "$BUILD/app/launchlab" "$BUILD/app/launchlab-cli" "$STAGE/bin/"
# BUNDLE_EXTRA: more binaries of the build to carry (e.g. tests/ui/test_gl_views for scripts/gpu/window_gl_check.sh).
for x in ${BUNDLE_EXTRA:-}; do cp "$BUILD/$x" "$STAGE/bin/"; done
strip "$STAGE/bin/"* || true
PLUGIN=$(dirname "$(dpkg -L qt6-base-dev 2>/dev/null | grep -m1 'qt6/plugins/platforms' || echo /usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/x)")
[ -f "$PLUGIN/libqoffscreen.so" ] || PLUGIN=/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms
cp "$PLUGIN/libqoffscreen.so" "$STAGE/platforms/"
source scripts/gpu/lib/bundle.sh  # the working directory is the repository root
stage_runtime "$STAGE" "$STAGE/bin/"* "$STAGE/platforms/libqoffscreen.so"
mkdir -p .carry
# xz -9e: its 64 MiB window sees that the binaries share most of their code (the kernels, the CUDA runtime), which
# the default level's 8 MiB misses: about 30 % smaller, so the bundle fits the device tool's carry limit.
# LAUNCHLAB_XZ: the xz options (e.g. "-6 -T2" when time matters more than the last megabytes).
tar -C "$(dirname "$STAGE")" -cf - gui | xz ${LAUNCHLAB_XZ:--9e -T1} > .carry/gui.tar.xz
du -h .carry/gui.tar.xz
