#!/usr/bin/env bash
# launchlab-cli --slurm against a real Slurm cluster (scripts/slurm/start_cluster.sh: one CPU-only node, partition
# "debug"), CPU implementations at small sizes so that each case takes seconds.
#   slurm_cli_test.sh CASE PATH/TO/launchlab-cli
#   CASE: run, pending, bad_partition, node_failure, sweep_split, sweep_lost_step
# Exit 0 passed, 1 failed (the first broken expectation on stderr), 77 skipped: Slurm is not installed or its
# controller does not answer (LAUNCHLAB_REQUIRE_SLURM=1, as in CI, makes that a failure).
set -uo pipefail
CASE=$1 CLI=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCRIPTS=$HERE/../../scripts/slurm
TMP=$(mktemp -d)
BLOCKER=""
cleanup() {
  [[ -n $BLOCKER ]] && scancel "$BLOCKER" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
fail() { echo "FAIL ($CASE): $*" >&2; exit 1; }
skip() {
  if [[ ${LAUNCHLAB_REQUIRE_SLURM:-0} == 1 ]]; then fail "LAUNCHLAB_REQUIRE_SLURM=1 but $*"; fi
  echo "SKIPPED: $*"
  exit 77
}
command -v srun >/dev/null || skip "Slurm is not installed (no srun; apt-get install slurm-client slurmctld slurmd munge)"
[[ -n ${SLURM_CONF:-} || -s /etc/slurm/slurm.conf ]] || skip "Slurm is not configured (no /etc/slurm/slurm.conf)"
# sinfo retries for about 10 s when no controller answers: a running one answers in milliseconds.
timeout 3 sinfo -h >/dev/null 2>&1 || skip "no Slurm controller answers (start one with scripts/slurm/start_cluster.sh)"
# Waits up to $2 seconds (default 30) for command $1 to succeed.
wait_for() {
  local i
  for ((i = 0; i < ${2:-30} * 5; ++i)); do eval "$1" && return 0; sleep 0.2; done
  return 1
}
NODE=$(sinfo -h -o '%n' | head -n 1)
# The case before may have left the node completing its last job for a moment.
wait_for "sinfo -h -o '%t' | grep -qx idle" 15 || skip "the node $NODE is not idle ($(sinfo -h -o '%t %E'))"
# The jobs still in the queue other than the blocker: none should be left behind by a cancelled or failed run.
leftover_jobs() { squeue -h -o '%i %j %T' | grep -v " ll-test-blocker " || true; }

case $CASE in
run)  # CPU implementations in a job step: same report as a local run, the job and node in the JSON and run file.
  "$CLI" run vector_add --n 4096 --impl cpu-serial,cpu-parallel --reps 2 --slurm --json "$TMP/r.json" \
    --save-run "$TMP/r.llrun" >"$TMP/out" 2>"$TMP/err" || fail "exit $?: $(cat "$TMP/err")"
  grep -q '^cpu-parallel .* pass ' "$TMP/out" || fail "no verified cpu-parallel row: $(cat "$TMP/out")"
  grep -q '"job_id": "[0-9]' "$TMP/r.json" || fail "no Slurm job id in the JSON"
  grep -q "\"node\": \"$NODE\"" "$TMP/r.json" || fail "the JSON does not name node $NODE"
  "$CLI" show "$TMP/r.llrun" | grep -q "in Slurm job [0-9]* on node $NODE" || fail "show: no job and node in the run file"
  ;;
pending)  # a job behind a full node shows PENDING (Resources); Ctrl+C (SIGINT) takes it out of the queue.
  BLOCKER=$(sbatch --parsable -J ll-test-blocker -N1 --exclusive --wrap 'sleep 120') || fail "sbatch failed"
  wait_for '[[ $(squeue -h -j $BLOCKER -o %T) == RUNNING ]]' || fail "the blocking job did not start"
  "$CLI" run vector_add --n 1000 --impl cpu-serial --slurm >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  wait_for 'grep -q "waiting for a GPU: job [0-9]* PENDING (Resources)" $TMP/err' ||
    { kill -INT $pid; fail "no PENDING line: $(cat "$TMP/err")"; }
  job=$(sed -n 's/.*waiting for a GPU: job \([0-9]*\) PENDING.*/\1/p' "$TMP/err" | head -n 1)
  [[ $(squeue -h -j "$job" -o %T 2>/dev/null) == PENDING ]] || fail "squeue does not show job $job PENDING"
  kill -INT $pid
  wait $pid
  rc=$?
  [[ $rc == 1 ]] || fail "a cancelled run should exit 1, not $rc"
  grep -q "cancelled" "$TMP/err" || fail "no word of the cancel: $(cat "$TMP/err")"
  wait_for '[[ -z $(leftover_jobs) ]]' 10 || fail "job left in the queue after the cancel: $(leftover_jobs)"
  ;;
bad_partition)  # one line naming the partition, exit 2, nothing queued.
  "$CLI" run vector_add --n 1000 --slurm --partition no-such-partition >"$TMP/out" 2>"$TMP/err"
  rc=$?
  [[ $rc == 2 ]] || fail "exit $rc, expected 2: $(cat "$TMP/err")"
  [[ $(wc -l <"$TMP/err") == 1 ]] || fail "expected one line on stderr: $(cat "$TMP/err")"
  grep -q "no partition 'no-such-partition'" "$TMP/err" || fail "the line does not name the partition: $(cat "$TMP/err")"
  ;;
node_failure)  # slurmd (and its steps) stopped mid-run: a failed run that says so; a saved run stays readable.
  "$CLI" run vector_add --n 1000 --impl cpu-serial --slurm --save-run "$TMP/before.llrun" >/dev/null 2>&1 ||
    fail "the run before the failure failed"
  "$CLI" run matmul --n 512 --impl cpu-serial --reps 2000 --warmup 0 --slurm >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  wait_for '[[ -n $(squeue -h -s -o %i | grep "\.0$") ]]' || fail "the worker's job step did not start"
  sleep 1
  bash "$SCRIPTS/stop_cluster.sh" --slurmd-only >/dev/null
  wait $pid
  rc=$?
  bash "$SCRIPTS/start_cluster.sh" --slurmd-only >/dev/null || fail "slurmd did not come back"
  [[ $rc == 1 ]] || fail "exit $rc, expected 1 (a failed run): $(cat "$TMP/err")"
  grep -q "run failed: the GPU worker in the Slurm job named .* during the run" "$TMP/err" ||
    fail "no clear error: $(cat "$TMP/err")"
  "$CLI" show "$TMP/before.llrun" >/dev/null || fail "the run saved before the failure cannot be read"
  "$CLI" run vector_add --n 1000 --impl cpu-serial --slurm >/dev/null 2>&1 || fail "no run after slurmd came back"
  ;;
sweep_split)  # two job steps give the same points (results, not times) as the local sweep; every point names its node.
  args=(sweep vector_add --n 1000,2000,3000,4000 --impl cpu-serial,cpu-parallel --reps 2 --warmup 0)
  "$CLI" "${args[@]}" --csv "$TMP/local.csv" >/dev/null 2>"$TMP/err" || fail "local sweep: $(cat "$TMP/err")"
  "$CLI" "${args[@]}" --slurm --nodes 2 --csv "$TMP/slurm.csv" >/dev/null 2>"$TMP/err" ||
    fail "sweep --slurm: $(cat "$TMP/err")"
  # n, impl, threads, status, reason and verification: everything but the times.
  results() { cut -d, -f1-5,13 "$1"; }
  diff <(results "$TMP/local.csv") <(results "$TMP/slurm.csv") >"$TMP/diff" || fail "different points: $(cat "$TMP/diff")"
  [[ $(grep -c "^[0-9]" "$TMP/slurm.csv") == 8 ]] || fail "expected 8 points: $(cat "$TMP/slurm.csv")"
  [[ -z $(grep "^[0-9]" "$TMP/slurm.csv" | cut -d, -f14 | grep -vx "$NODE") ]] || fail "a point without its node"
  jobs=$(sed -n 's/.*cells in Slurm job \([0-9]*\) on .*/\1/p' "$TMP/err" | sort -u | wc -l)
  [[ $jobs == 2 ]] || fail "expected two job steps, saw $jobs: $(cat "$TMP/err")"
  ;;
sweep_lost_step)  # a step that dies mid-sweep costs its remaining points, which run again on a fresh step.
  "$CLI" sweep matmul --n 192:416:32 --impl cpu-serial --reps 60 --warmup 0 --slurm --nodes 2 --csv "$TMP/s.csv" \
    >/dev/null 2>"$TMP/err" &
  pid=$!
  wait_for '[[ $(squeue -h -s -o %i | grep -c "\.0$") == 2 ]]' || fail "the two job steps did not start"
  sleep 0.3
  job=$(squeue -h -o %i | sort -n | tail -n 1)
  worker=$(scontrol listpids "$job" | awk 'NR > 1 && $3 == 0 {print $1; exit}')
  [[ -n $worker ]] || fail "no worker process in job $job"
  kill -9 "$worker"
  wait $pid || fail "exit $?: $(cat "$TMP/err")"
  grep -q "lost with its job step on node $NODE" "$TMP/err" || fail "the lost step is not reported: $(cat "$TMP/err")"
  grep -q "lost points again on a fresh job step" "$TMP/err" || fail "no re-run of the lost points: $(cat "$TMP/err")"
  [[ $(grep -c "^[0-9]*,cpu-serial,0,ok,.*,$NODE," "$TMP/s.csv") == 8 ]] || fail "not every point measured: $(cat "$TMP/s.csv")"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS ($CASE)"
