#!/usr/bin/env bash
# CI: the Debian package, from a build tree that `bash scripts/setup.sh test` already built (default build/, the
# configuration with the window; nothing is rebuilt). Builds the .deb with CPack, checks its Depends and its desktop
# entry, AppStream metainfo and man page, moves the build tree aside, installs the .deb on this machine with apt-get
# (so its Depends resolve), runs the installed `launchlab-cli list`, a Numba kernel without numba-cuda (one line)
# and `launchlab --screenshot` (offscreen) from /usr/bin, and removes the package again. Debian 12, as root.
#   bash scripts/ci_package.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
BUILD=${1:-build}
BUILD=$(cd "$BUILD" && pwd)
say() { printf '\n==> %s\n' "$*"; }
fail() { echo "ci_package: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "run as root (it installs and removes a package)"
[ -x "$BUILD/app/launchlab" ] && [ -x "$BUILD/app/launchlab-cli" ] || fail "$BUILD has no launchlab and launchlab-cli: run 'bash scripts/setup.sh test' first"
dpkg-query -W -f='${Status}' launchlab 2>/dev/null | grep -q "install ok installed" && fail "launchlab is already installed on this machine"

missing=()
for p in dpkg-dev desktop-file-utils appstream man-db; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "Installing the packaging tools: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

start=$(date +%s)
say "Building the .deb from $BUILD"
rm -f "$BUILD"/launchlab_*.deb
(cd "$BUILD" && cpack -G DEB) > /tmp/ci_package.cpack.log 2>&1 || { cat /tmp/ci_package.cpack.log; fail "cpack failed"; }
debs=("$BUILD"/launchlab_*.deb)
[ -f "${debs[0]}" ] || fail "cpack wrote no launchlab_*.deb"
WORK=$(mktemp -d /tmp/launchlab-package.XXXXXX)
chmod 755 "$WORK"  # apt's download user reads the .deb from here
DEB="$WORK/$(basename "${debs[0]}")"
cp "${debs[0]}" "$DEB"
depends=$(dpkg-deb -f "$DEB" Depends)
echo "$(basename "$DEB"): $(du -h "$DEB" | cut -f1); Depends: $depends"
echo "$depends" | grep -qi "cuda\|nvidia" && fail "the package depends on CUDA or NVIDIA packages: $depends"
echo "$depends" | grep -q "libqt6widgets6" || fail "Depends lacks Qt 6 Widgets: $depends"
recommends=$(dpkg-deb -f "$DEB" Recommends)
grep -q "python3" <<<"$recommends" || fail "Recommends lacks python3 (Numba kernels): $recommends"
grep -q "numba-cuda==" <<<"$(dpkg-deb -f "$DEB" Description)" || fail "the description does not say how to get numba-cuda"

say "Checking the packaged desktop entry, AppStream metainfo and man page"
dpkg-deb -x "$DEB" "$WORK/root"
for f in usr/bin/launchlab usr/bin/launchlab-cli usr/share/applications/org.launchlab.launchlab.desktop \
         usr/share/metainfo/org.launchlab.launchlab.metainfo.xml usr/share/icons/hicolor/scalable/apps/launchlab.svg \
         usr/share/man/man1/launchlab-cli.1 usr/share/launchlab/python/launchlab_numba.py; do
  [ -e "$WORK/root/$f" ] || fail "the package lacks /$f"
done
desktop-file-validate "$WORK/root/usr/share/applications/org.launchlab.launchlab.desktop"
appstreamcli validate --no-net "$WORK/root/usr/share/metainfo/org.launchlab.launchlab.metainfo.xml"
# Whole outputs are captured before grep: with pipefail, `grep -q` leaving early makes a writer of more than one
# pipe buffer die of SIGPIPE and the pipeline fail although the line was there.
manpage=$(man -l "$WORK/root/usr/share/man/man1/launchlab-cli.1" 2>&1) || fail "man cannot render the man page"
grep -q "launchlab-cli - run, time and verify" <<<"$manpage" || fail "the man page does not render"

# The build tree goes aside, so nothing can run from it or load from it; it comes back whatever happens.
ASIDE="$BUILD.aside-$$"
mv "$BUILD" "$ASIDE"
cleanup() {
  dpkg-query -W -f='${Status}' launchlab 2>/dev/null | grep -q "install ok installed" && apt-get remove -y -q launchlab >/dev/null
  [ -d "$ASIDE" ] && mv "$ASIDE" "$BUILD"
  rm -rf "$WORK"
}
trap cleanup EXIT

say "Installing $(basename "$DEB") with apt-get (build tree moved aside)"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$DEB" > "$WORK/apt.log" 2>&1 \
  || { cat "$WORK/apt.log"; fail "apt-get install failed"; }
[ "$(command -v launchlab-cli)" = /usr/bin/launchlab-cli ] || fail "launchlab-cli is not /usr/bin/launchlab-cli"
listed=$(/usr/bin/launchlab-cli list) || fail "the installed launchlab-cli list failed"
grep -q vector_add <<<"$listed" || fail "the installed launchlab-cli list shows no vector_add"
info=$(/usr/bin/launchlab-cli info) || fail "the installed launchlab-cli info failed"
sed -n 1,3p <<<"$info"
# Without numba-cuda (the package only recommends a Python): a .py kernel is one line saying how to get it.
printf 'from numba import cuda\n\n@cuda.jit\ndef vector_add(x, y, out):\n    pass\n' > "$WORK/kernel.py"
rc=0
numba_err=$(/usr/bin/launchlab-cli compile vector_add --kernel-file "$WORK/kernel.py" --python /nonexistent/python3 2>&1) \
  || rc=$?
[ "$rc" = 2 ] && grep -q "install numba-cuda" <<<"$numba_err" || fail "a .py kernel without numba-cuda: $rc $numba_err"
shot="$WORK/window.png"
QT_QPA_PLATFORM=offscreen timeout 300 /usr/bin/launchlab --screenshot "$shot" || fail "the installed launchlab --screenshot failed"
[ -s "$shot" ] && head -c 8 "$shot" | od -An -tx1 | grep -q "89 50 4e 47" || fail "the screenshot is not a non-empty PNG"
echo "screenshot: $(du -h "$shot" | cut -f1)"

say "Removing the package"
apt-get remove -y -q launchlab > "$WORK/remove.log" 2>&1 || { cat "$WORK/remove.log"; fail "apt-get remove failed"; }
[ ! -e /usr/bin/launchlab ] && [ ! -e /usr/bin/launchlab-cli ] || fail "files of the package remain after removal"
say "Package OK: built, installed, started and removed in $(( $(date +%s) - start )) s"
