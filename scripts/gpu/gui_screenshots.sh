#!/usr/bin/env bash
# Runs ON the GPU machine: unpacks .carry/gui.tar.xz (scripts/gpu/bundle_gui.sh) and takes screenshots of the real
# window with the GPU (Qt's offscreen platform, a virtual screen of each size; the CUDA work runs in the worker).
# Usage: scripts/gpu/gui_screenshots.sh BUNDLE OUT_DIR [WORKLOAD | course:EXPERIMENT_ID ...]
# OUT_DIR gets gui_shots${SHOT_TAG}.tar.gz (the PNGs and each run's log; the device tool returns at most 8 files).
# SHOT_ARGS: more window options for every shot (e.g. "--tab roofline", "--open-sweep F"); SHOT_TAG: a name part for
# the PNGs and the tarball; SHOT_MODES: "normal presentation" (default) or one of them; SHOT_SIZES: the virtual
# screens (default "1280x720 1920x1080").
set -u
BUNDLE=${1:?bundle}
FINAL=${2:?out dir}
shift 2
WORKLOADS=${*:-vector_add}
ROOT=$(mktemp -d)
tar -C "$ROOT" -xJf "$BUNDLE"
G=$ROOT/gui
OUT=$ROOT/gui_shots
mkdir -p "$OUT" "$FINAL" "$ROOT/xdg" && chmod 700 "$ROOT/xdg"
TAG=${SHOT_TAG:-}
read -r -a more <<< "${SHOT_ARGS:-}"
trap 'tar -C "$ROOT" -czf "$FINAL/gui_shots$TAG.tar.gz" gui_shots' EXIT
export LD_LIBRARY_PATH="$G/lib:${LD_LIBRARY_PATH:-}" QT_QPA_PLATFORM_PLUGIN_PATH="$G/platforms"
export FONTCONFIG_FILE="$G/fonts.conf" XDG_RUNTIME_DIR="$ROOT/xdg" HOME="$ROOT"
status=0
for size in ${SHOT_SIZES:-1280x720 1920x1080}; do
  w=${size%x*} h=${size#*x}
  cfg=$ROOT/screen_$size.json
  printf '{"windowFrames": false, "screens": [{"name": "s", "x": 0, "y": 0, "width": %s, "height": %s, "logicalDpi": 96, "dpr": 1}]}\n' "$w" "$h" > "$cfg"
  for wl in $WORKLOADS; do
    for mode in ${SHOT_MODES:-normal presentation}; do
      extra=()
      [ "$mode" = presentation ] && extra=(--presentation)
      case $wl in course:*) start=(--course "${wl#course:}") ;; *) start=(--workload "$wl") ;; esac
      png="$OUT/gpu_${wl/:/_}${TAG}_${mode}_${size}.png"
      QT_QPA_PLATFORM="offscreen:configfile=$cfg" timeout 120 "$G/bin/launchlab" "${start[@]}" "${extra[@]}" \
        "${more[@]}" --screenshot "$png" > "${png%.png}.log" 2>&1
      rc=$?
      echo "screenshot $wl $mode $size: exit $rc" | tee -a "$OUT/summary.txt"
      [ $rc -eq 0 ] || status=1
    done
  done
done
exit $status
