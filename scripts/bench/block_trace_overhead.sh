#!/usr/bin/env bash
# Blocks on SMs: the instrumentation's overhead and the Gantt charts' evidence, run on the GPU machine.
#
#   scripts/bench/block_trace_overhead.sh LAUNCHLAB_CLI OUTPUT_DIR [REPS]
#
# Every instrumented implementation runs twice at the same size and launch, untraced then with --trace-blocks; each
# run's table and JSON go to OUTPUT_DIR/<point>_{plain,traced}.{txt,json} (the traced JSON carries block_trace: the
# evidence the window draws as its Blocks on SMs chart; open it with the window's Open run after --save-run, or read
# the summary lines in the .txt). OUTPUT_DIR/overhead.txt lists the kernel medians and the overhead in percent.
# The exit status is the number of runs that failed (capped at 100).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib/args.sh"
bench_args 20 "$@"

# The kernel median (ms) of IMPL in a run's table: implementation, grid, "x", block, H2D, kernel, …
kernel_ms() { awk -v id="$2" '$1 == id && $3 == "x" { print $6; exit }' "$1"; }

# point NAME IMPL ARGS…: IMPL alone, untraced then traced (plus a run file of the traced one).
point() {
  local name=$1 impl=$2
  shift 2
  for mode in plain traced; do
    local extra=()
    [[ $mode == traced ]] && extra=(--trace-blocks --save-run "$out/${name}_traced.llrun")
    "$cli" run "$@" --impl "$impl" --reps "$reps" --warmup 3 --json "$out/${name}_$mode.json" "${extra[@]}" \
      >"$out/${name}_$mode.txt" 2>&1 || { failed=$((failed + 1)); echo "  -> $name $mode failed; see $out/${name}_$mode.txt"; }
  done
  local a b
  a=$(kernel_ms "$out/${name}_plain.txt" "$impl")
  b=$(kernel_ms "$out/${name}_traced.txt" "$impl")
  awk -v n="$name" -v a="${a:-nan}" -v b="${b:-nan}" \
    'BEGIN { printf "%-34s %12s %12s %10s\n", n, a, b, (a + 0 > 0 ? sprintf("%+.1f %%", 100 * (b - a) / a) : "-") }' \
    | tee -a "$out/overhead.txt"
  grep -E '^    (blocks|waves|time):' "$out/${name}_traced.txt" | sed 's/^/  /'
}

printf '%-34s %12s %12s %10s\n' point "kernel ms" "traced ms" overhead | tee "$out/overhead.txt"
point vector_add_one_per_thread_16Mi  cuda-one-per-thread   vector_add --n 16Mi
point vector_add_grid_stride_16Mi     cuda-grid-stride      vector_add --n 16Mi
point vector_add_vectorized_16Mi      cuda-vectorized       vector_add --n 16Mi
point histogram_global_atomics_16Mi   cuda-global-atomics   histogram --n 16Mi
point reduce_sum_warp_shuffle_16Mi    cuda-warp-shuffle     reduce_sum --n 16Mi
point monte_carlo_pi_philox           cuda-philox           monte_carlo_pi --param iters=1000
# A partial last wave on purpose: 1024-thread blocks (2 resident per SM on an H100/H200: 264 per wave), 300 blocks.
point vector_add_partial_wave         cuda-one-per-thread   vector_add --n 300Ki --block 1024 --grid 300
# Imbalance: a grid-stride kernel with a grid of 1.5 blocks per SM.
point vector_add_grid_1p5_per_sm      cuda-grid-stride      vector_add --n 16Mi --block 256 --grid 198
exit $((failed > 100 ? 100 : failed))
