#!/usr/bin/env bash
# Stops the cluster of start_cluster.sh: its jobs are cancelled, then slurmd, slurmctld and munged are ended by the
# pids in their pid files (nothing else on the machine is touched). --quiet: say nothing when none was running.
# --slurmd-only: stop slurmd alone (and the job steps it started), as a node that fails mid-job; the node is marked
# down at once, as slurmctld does by itself once the node misses its pings (about half a minute).
set -uo pipefail
DIR=${LAUNCHLAB_SLURM_DIR:-/var/tmp/launchlab-slurm}
quiet=false slurmd_only=false
for a in "$@"; do
  case $a in
    --quiet) quiet=true ;;
    --slurmd-only) slurmd_only=true ;;
    *) echo "stop_cluster.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
# Ends the process of pid file $1 (SIGTERM, then SIGKILL after 5 s); true when one was running.
end_pidfile() {
  local f=$1 pid
  [[ -s $f ]] || return 1
  pid=$(<"$f")
  rm -f "$f"
  kill -0 "$pid" 2>/dev/null || return 1
  kill "$pid"
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null
  return 0
}
# The job steps of this node (slurmstepd and the tasks under it), found by their parent chain from the spool
# folder's step sockets: what a node that goes down takes with it.
end_steps() {
  local sock pid
  for sock in "$DIR"/spool/*_*.*; do
    [[ -S $sock ]] || continue
    pid=$(ss -xlpn 2>/dev/null | awk -v s="$sock" '$5 == s {match($0, /pid=[0-9]+/); print substr($0, RSTART + 4, RLENGTH - 4)}')
    [[ -n $pid ]] && kill -9 -- "$pid" $(pgrep -P "$pid") 2>/dev/null
  done
}
if $slurmd_only; then
  end_pidfile "$DIR/slurmd.pid"
  end_steps
  scontrol update NodeName="$(hostname -s)" State=DOWN Reason="slurmd stopped by stop_cluster.sh" 2>/dev/null
  echo "slurmd stopped"
  exit 0
fi
ran=false
if [[ -s $DIR/slurmctld.pid ]] && command -v scancel >/dev/null; then scancel --quiet --full --user=root 2>/dev/null || true; fi
end_pidfile "$DIR/slurmd.pid" && ran=true
end_steps
end_pidfile "$DIR/slurmctld.pid" && ran=true
end_pidfile "$DIR/munge/munged.pid" && ran=true
rm -f "$DIR/munged.pid"
rm -rf "$DIR/state" "$DIR/spool"
if $ran || ! $quiet; then echo "slurm cluster stopped"; fi
