# Sourced by the scripts/gpu/*_check.sh scripts that run ON the GPU machine: a work folder, a summary, one line per
# launchlab-cli step, and everything packed into OUT_DIR/NAME.tar.gz on exit. Files over 20 MB (run files of large
# traced runs) are left out of the tarball: the device tool returns small files only, and one big file would lose all.

# check_begin NAME BIN_DIR OUT_DIR: sets BIN, OUTDIR, WORK, E (the results folder, $WORK/NAME), C (launchlab-cli)
# and summary, and packs on exit.
check_begin() {
  CHECK_NAME=$1
  BIN=$(cd "${2:?bin dir}" && pwd)
  OUTDIR=${3:?out dir}
  WORK=$(mktemp -d)
  E=$WORK/$CHECK_NAME
  mkdir -p "$E" "$OUTDIR"
  export LD_LIBRARY_PATH="$BIN/../lib:${LD_LIBRARY_PATH:-}"
  C="$BIN/launchlab-cli"
  summary=$E/summary.txt
  trap check_pack EXIT
  note "date: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
}

check_pack() {
  local skip=() f
  while IFS= read -r f; do skip+=(--exclude="${f#"$WORK"/}"); done < <(find "$E" -type f -size +20M)
  tar -C "$WORK" "${skip[@]}" -czf "$OUTDIR/$CHECK_NAME.tar.gz" "$CHECK_NAME" 2>/dev/null
  cp "$summary" "$OUTDIR/summary.txt" 2>/dev/null
}

note() { echo "$*" | tee -a "$summary"; }

step() {  # step NAME TIMEOUT ARGS…: one launchlab-cli call, its output in NAME.txt
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$C" "$@" > "$E/$name.txt" 2>&1
  note "$name: exit $? ($*)"
}

# egl_vendor_file DIR: glvnd finds the NVIDIA driver's EGL (libEGL_nvidia.so.0, which the driver brings) through a
# vendor file; on a machine without one, one is written in DIR.
egl_vendor_file() {
  if [ ! -e /usr/share/glvnd/egl_vendor.d/10_nvidia.json ] && [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ]; then
    echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > "$1/10_nvidia.json"
    export __EGL_VENDOR_LIBRARY_FILENAMES="$1/10_nvidia.json"
  fi
}

# unpack_suites BUNDLE ROOT: the bundle of scripts/gpu/bundle_suites.sh unpacked under ROOT, its build tree put back
# at the build's absolute path (the sources' path linked to this checkout when it does not exist here), and the
# environment its programs need. Sets G (the bundle: bin/, lib/, platforms/) and BUILD.
unpack_suites() {
  local bundle=${1:?bundle} root=${2:?root} repo
  repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
  tar -C "$root" -xJf "$bundle"
  G=$root/gui
  BUILD=$(cat "$G/build_path.txt")
  local source
  source=$(cat "$G/source_path.txt")
  [ -e "$source" ] || { mkdir -p "$(dirname "$source")" && ln -s "$repo" "$source"; }
  mkdir -p "$BUILD" && cp -a "$G/tree/." "$BUILD/"
  mkdir -p "$root/xdg" && chmod 700 "$root/xdg"
  export LD_LIBRARY_PATH="$G/lib:${LD_LIBRARY_PATH:-}" QT_QPA_PLATFORM_PLUGIN_PATH="$G/platforms"
  export FONTCONFIG_FILE="$G/fonts.conf" HOME="$root" XDG_RUNTIME_DIR="$root/xdg"
  export LAUNCHLAB_CLI_PATH="$BUILD/app/launchlab-cli" QT_LOGGING_RULES="qt.qpa.*=false"
  egl_vendor_file "$root"
}

# ui_suites OUT SUMMARY NAME CTEST_ARGS...: one ctest run of the window's suites (in $BUILD/tests/ui, from
# unpack_suites), its log in OUT/NAME.txt; its totals, its failed tests and their FAIL! lines (and the stage walk's
# timing line) appended to SUMMARY. Returns ctest's status.
ui_suites() {
  local out=$1 summary=$2 name=$3 t0=$SECONDS status=0
  shift 3
  (cd "$BUILD/tests/ui" && ctest --output-on-failure "$@") > "$out/$name.txt" 2>&1 || status=1
  { echo "$name ($((SECONDS - t0)) s): $(grep -E 'tests passed' "$out/$name.txt" | tail -1)"
    sed -n '/The following tests FAILED/,$p' "$out/$name.txt"
    grep -E "FAIL!|stage walk" "$out/$name.txt" | cut -c1-400 | head -20; } >> "$summary"
  return $status
}
