#!/bin/sh
# A --fresh instance ended by SIGTERM (and one by SIGINT) quits normally: exit 0 and no launchlab-* folder left
# in its temporary folder. Usage: fresh_sigterm.sh <launchlab binary>
app="$1"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for sig in TERM INT; do
  TMPDIR="$tmp" QT_QPA_PLATFORM=offscreen "$app" --fresh --no-first-run --in-process &
  pid=$!
  # Wait until the instance has made its temporary settings folder (it is up).
  i=0
  while [ -z "$(ls "$tmp" | grep '^launchlab-')" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
  [ -n "$(ls "$tmp" | grep '^launchlab-')" ] || { echo "no launchlab-* folder appeared"; kill -9 $pid; exit 1; }
  sleep 1
  kill -s $sig $pid
  wait $pid
  rc=$?
  left=$(ls "$tmp" | grep '^launchlab-')
  [ $rc -eq 0 ] || { echo "SIG$sig: exit code $rc"; exit 1; }
  [ -z "$left" ] || { echo "SIG$sig left: $left"; exit 1; }
done
echo ok
