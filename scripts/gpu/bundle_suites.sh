#!/usr/bin/env bash
# On the build machine: the build's test suites for the GPU machine, which has no Qt: the window's (ctest label
# "ui") and the GoogleTest suites (core, kernels, cli, gl, gpu). Packs, from a CUDA + GUI build, the suites'
# executables with the CTest files that run them, the window and the CLI they start, every shared library ldd lists
# for them and for Qt's offscreen platform plugin (but glibc's own, libstdc++ and libgcc_s), DejaVu fonts and a
# fonts.conf, as one file: .carry/suites.tar.xz. The CTest files name the build's absolute paths (and the tests the
# sources' folder), so the bundle records both: unpack_suites (scripts/gpu/lib/check.sh) recreates them on the GPU
# machine. Its bin/ is laid out as scripts/gpu/bundle_gui.sh's, so gui_screenshots.sh takes this bundle as well.
# Usage: [SUITES=cli|ui|all] scripts/gpu/bundle_suites.sh [BUILD_DIR]   (default: build, as scripts/setup.sh
# configures it). SUITES=cli: the GoogleTest suites and the CLI, no Qt (a small bundle); ui: the window's suites and
# the window; all (default): both, which may not fit one device call's carry. The file is .carry/suites-$SUITES.tar.xz.
set -eu
cd "$(dirname "$0")/../.."
BUILD=$(cd "${1:-build}" && pwd)
ninja -C "$BUILD" all
STAGE=$(mktemp -d)/gui
mkdir -p "$STAGE/bin" "$STAGE/tree" "$STAGE/lib" "$STAGE/platforms" "$STAGE/fonts"
# The build's own layout, relative to its root: the CTest files, the suites, and what they start.
SUITES=${SUITES:-all}
# SUITES_SKIP: suite executables to leave out (e.g. "test_form_state test_log_text"), when the bundle must fit one
# device call's carry; the GPU scripts leave the same names out of their ctest runs.
SKIP_RE=""
for t in ${SUITES_SKIP:-}; do SKIP_RE="${SKIP_RE:+$SKIP_RE|}tests(/ui)?/$t"; done
case $SUITES in cli) dirs=(tests) ;; ui) dirs=(tests/ui) ;; all) dirs=(tests tests/ui) ;; *) echo "SUITES: cli, ui or all" >&2; exit 2 ;; esac
(cd "$BUILD" && find "${dirs[@]}" -maxdepth 1 -type f \( -name '*.cmake' -o -name '*.json' -o -perm -u+x \) ! -name cmake_install.cmake \
  -print; [ "$SUITES" = cli ] || echo app/launchlab; [ "$SUITES" = ui ] && echo tests/fake_worker; echo app/launchlab-cli) |
  sort -u | grep -v -x -E "${SKIP_RE:-^$}" |
  while read -r f; do mkdir -p "$STAGE/tree/$(dirname "$f")" && cp "$BUILD/$f" "$STAGE/tree/$f"; done
find "$STAGE/tree" -type f -perm -u+x -exec strip {} + 2> /dev/null || true
# bin/ as scripts/gpu/bundle_gui.sh lays it out, so gui_screenshots.sh and the other GPU scripts take this bundle too.
cp "$STAGE/tree/app/"* "$STAGE/bin/"
echo "$BUILD" > "$STAGE/build_path.txt"
pwd > "$STAGE/source_path.txt"
PLUGIN=/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms
cp "$PLUGIN/libqoffscreen.so" "$STAGE/platforms/"
source scripts/gpu/lib/bundle.sh  # the working directory is the repository root
mapfile -t exes < <(find "$STAGE/tree" -type f -perm -u+x)
stage_runtime "$STAGE" "${exes[@]}" "$PLUGIN/libqoffscreen.so"
mkdir -p .carry
# xz with a 256 MiB dictionary: each suite is ~19 MB of the same static libraries, so each one after the first adds
# ~0.5 MB to the bundle (a 64 MiB window would not reach back past three suites).
tar -C "$(dirname "$STAGE")" -cf - gui | xz ${LAUNCHLAB_XZ:--9e --lzma2=dict=256MiB -T1} > ".carry/suites-$SUITES.tar.xz"
du -h ".carry/suites-$SUITES.tar.xz"
