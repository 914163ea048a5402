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
# The experiments added from the seeds, and those whose run changed: each as its preset runs it (a sweep for the
# comparisons), the table kept; the summary line gives the exit status (0: everything ran and verified).
for id in tp31-add-ten tp31-dtype-f32-f64 tp31-dtype-i32-i64 tp31-zero-suppress tp31-make-pulses \
          tp32-coverage-fewer-threads tp32-launch-heuristics es-suma-elementwise es-suma-kernel es-suma-kernel-surplus \
          dli-nn-hidden-layer-512 s3-normalize-array-ops s3-caching s3-reduce atlas-arange-squared \
          atlas-quadratic-scalar atlas-sort atlas-quadratic atlas-quadratic-pow atlas-intpow atlas-quadratic-f32 \
          atlas-mandelbrot es-device-query; do
  timeout 300 "$CLI" course run "$id" > "$E/new_$id.txt" 2>&1
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
pulse_waveform_seed_only pulse_waveform --dtype i16 --n 4097 --impl cuda-zero-suppress-only
pulse_waveform_off pulse_waveform --dtype f32 --n 4097 --param zero_suppress=off --impl all
mandelbrot_array_passes mandelbrot --n 97 --impl cuda-array-passes --param cap=50
row_normalize_array_passes row_normalize --n 99 --param d=5 --impl cuda-array-passes
reduce_sum_call_forms reduce_sum --n 1000003 --impl cuda-reduce-host-input,cuda-reduce-device-result,cuda-reduce-device-input
go_fast_nvrtc go_fast --n 64 --impl cuda-nvrtc-first-call
sort_cub sort --n 100003 --impl cuda-cub-radix
quadratic_pow quadratic --n 100003 --param square=pow --impl cuda-numpy-passes
streams_overlap_100003 streams_overlap --n 100003 --param input=random --param chunks=7 --param streams=3 --impl all
CASES
