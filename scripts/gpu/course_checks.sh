#!/usr/bin/env bash
# Runs ON the GPU machine: the course experiments whose lesson is a timing or a launch count, and
# compute-sanitizer memcheck on the kernels the course's divergences added.
# Usage: scripts/gpu/course_checks.sh BIN_DIR OUT_DIR  (OUT_DIR/course_checks.tar.gz, summary on stdout)
set -u
BIN=$(cd "${1:?bin dir}" && pwd)
FINAL=${2:?out dir}
ROOT=$(mktemp -d)
E=$ROOT/course_checks
mkdir -p "$E" "$FINAL"
trap 'tar -C "$ROOT" -czf "$FINAL/course_checks.tar.gz" course_checks' EXIT
export LD_LIBRARY_PATH="$BIN/../lib:${LD_LIBRARY_PATH:-}"
CLI=$BIN/launchlab-cli
note() { echo "$*" | tee -a "$E/summary.txt"; }
for id in tp32-no-synchronize s3-caching atlas-tree-reduction atlas-pycuda-increment tp31-add-ufunc-broadcast \
          tp31-device-arrays s3-compute-pi tp32-histogram s3-streams-events s3-streams-overlap; do
  timeout 120 "$CLI" course run "$id" --reps 20 --json "$E/course_$id.json" > "$E/course_$id.txt" 2>&1
  note "course run $id: exit $?"
done
while read -r name args; do
  [ -n "$name" ] || continue
  compute-sanitizer --tool memcheck --error-exitcode 9 "$CLI" run $args --reps 1 --warmup 0 > "$E/memcheck_$name.txt" 2>&1
  note "compute-sanitizer memcheck $name: exit $?"
done <<'CASES'
monte_carlo_pi_100 monte_carlo_pi --n 100
reduce_sum_3 reduce_sum --n 3 --impl cuda-tree-global-halving,cuda-atomics --dtype f64
reduce_sum_1000003 reduce_sum --n 1000003 --impl all
pulse_waveform_i16 pulse_waveform --dtype i16 --n 4097
vector_add_variants vector_add --n 100003 --impl all
row_normalize_in_place row_normalize --n 99 --impl all
launch_coverage_xy launch_coverage --n 4097 --param value=x-plus-y
streams_overlap_100003 streams_overlap --n 100003 --param input=random --param chunks=7 --param streams=3 --impl all
CASES
