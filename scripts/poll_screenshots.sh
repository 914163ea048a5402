#!/bin/sh
# The class poll on the stage at a 1280x720 and a 1920x1080 projector (Qt's offscreen platform, a virtual screen of
# each size): Page Down from each experiment given to the next, A, twelve answers, R; the question with its QR code and
# live count, then the reveal, as PNGs in OUT named by the experiment asked.
# Usage: scripts/poll_screenshots.sh BUILD_DIR OUT [EXPERIMENT_BEFORE,...]
set -eu
build=$1
out=$2
courses=${3:-tp32-add-kernel,tp32-atomic-counter,tp32-coverage,es-atomic-counter-4x128,tp31-polar-distance,atlas-histogram-private}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for size in 1280x720 1920x1080; do
  w=${size%x*}
  h=${size#*x}
  printf '{"screens": [{"name": "projector", "x": 0, "y": 0, "width": %s, "height": %s, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}\n' \
    "$w" "$h" >"$tmp/$size.json"
  for after in $(echo "$courses" | tr ',' ' '); do  # one window per process
    QT_QPA_PLATFORM="offscreen:configfile=$tmp/$size.json" XDG_RUNTIME_DIR="$tmp" QT_LOGGING_RULES='qt.qpa.*=false' \
      LAUNCHLAB_POLL_SHOTS="$out" LAUNCHLAB_POLL_AFTER="$after" \
      "$build/tests/ui/test_stage_poll" theStageAsARoomSeesIt
  done
done
ls "$out"
