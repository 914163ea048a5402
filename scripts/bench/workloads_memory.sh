#!/usr/bin/env bash
# Benchmark points of the memory chapter (2-D grids, coalescing, shared memory), run on the GPU machine.
#
#   scripts/bench/workloads_memory.sh LAUNCHLAB_CLI OUTPUT_DIR [REPS]
#
# Writes OUTPUT_DIR/<point>.json and .txt per run point and OUTPUT_DIR/<point>.csv per sweep, then prints each
# point's table, and OUTPUT_DIR/coalescing_curve.txt (GB/s against stride, predicted sectors beside it). The
# targets' ratios (padded transpose and row_col_sums against cudaMemcpy, matrix_add_2d against vector_add at the same
# n, matmul's best hand-written kernel against cuBLAS SGEMM) are computed in one run by `launchlab-cli bench`
# (section 6). The exit status is the number of points that failed (capped at 100).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib/args.sh"
bench_args 20 "$@"

show='^ *(cpu|cuda|cublas)|GB/s|GFLOP/s'
show_lines=14
source "$(dirname "${BASH_SOURCE[0]}")/lib/run_point.sh"

# coalescing: the seed's launch, then the bandwidth-vs-stride curve (1…32) of both kernels at n = 2^24 outputs, each
# stride beside the predicted 32-byte sectors per warp load (the workload's metric, from a tiny CPU run).
run_point coalescing_seed_2e20      run coalescing --n 1048576 --param stride=16 --block 1024 --grid 1024
run_point coalescing_stride_sweep   sweep coalescing --n 16777216 --param stride=1:32:1 --impl cuda-coalesced,cuda-strided
{
  printf '%6s %14s %16s %28s\n' stride "strided GB/s" "coalesced GB/s" "predicted sectors/warp load"
  for s in $(seq 1 32); do
    pred=$("$cli" run coalescing --n 32 --param stride="$s" --impl cpu-serial --reps 1 --warmup 0 |
      sed -n 's/.*cpu-serial: sectors_per_warp_load = //p')
    awk -F, -v s="$s" -v p="$pred" '$1 == s && $2 == "cuda-strided" { st = $10 } $1 == s && $2 == "cuda-coalesced" { co = $10 }
      END { printf "%6d %14.1f %16.1f %28s\n", s, st, co, p }' "$out/coalescing_stride_sweep.csv"
  done
} | tee "$out/coalescing_curve.txt"

# row_col_sums: the seed's 64 x 256 launch on 16384^2 (ones, column 3 = 9), every variant with auto launches (the
# 0.85x-of-copy target's size), row and column passes timed apart (metrics row_sums_ms, col_sums_ms), odd sides.
run_point col_sums_seed_16384       run row_col_sums --n 16384 --block 256 --grid 64 --param input=seed-cols --impl cpu-serial,cuda-thread-per-line
run_point row_col_sums_16384        run row_col_sums --n 16384 --impl cuda-thread-per-line,cuda-block-reduce,cuda-cub-segmented
run_point row_col_sums_odd_8191x8193 run row_col_sums --n 8191 --param cols=8193 --impl cuda-thread-per-line,cuda-block-reduce,cuda-cub-segmented
run_point col_sums_16384_grids      sweep row_col_sums --n 16384 --impl cuda-thread-per-line --block 256 --grid 64,132,264,528,1056

# matrix_add_2d: the seed's launch, then 8192^2 (the 0.95x-of-vector_add target's size) with auto launches.
run_point matrix_add_seed_2048      run matrix_add_2d --n 2048 --grid 64x64 --block 32x32 --param input=arange
run_point matrix_add_8192           run matrix_add_2d --n 8192 --impl cuda-coalesced,cuda-uncoalesced
run_point matrix_add_8192_blocks    sweep matrix_add_2d --n 8192 --impl cuda-coalesced --block 32x1,32x4,32x8,32x16,32x32,16x16,8x8,64x4

# transpose: the seed's launch, then 8192^2 (the 0.90x-of-memcpy target's size), odd sides, and a block sweep of
# the tiles (32 x R threads per 32 x 32 tile: 32 / R elements per thread).
run_point transpose_seed_4096       run transpose --n 4096 --grid 128x128 --block 32x32 --param input=arange
run_point transpose_8192            run transpose --n 8192 --impl cuda-naive,cuda-tile,cuda-tile-padded,cuda-tile-padded-64
run_point transpose_8192_f64        run transpose --n 8192 --dtype f64 --impl cuda-naive,cuda-tile,cuda-tile-padded,cuda-tile-padded-64
run_point transpose_odd_8191x8193   run transpose --n 8191 --param cols=8193 --impl cuda-naive,cuda-tile,cuda-tile-padded,cuda-tile-padded-64
run_point transpose_8192_blocks     sweep transpose --n 8192 --impl cuda-tile,cuda-tile-padded,cuda-tile-padded-64 --block 32x2,32x4,32x8,32x16,32x32,16x16

# matmul: 4096^3 f32 (the 0.70x-of-cuBLAS-SGEMM target's size; cpu-serial runs once as the reference, ~10+ s), an
# odd shape whose sides are no multiple of any tile, and the 16 x 16 tiled kernel's block sweep (the block is its C tile).
run_point matmul_4096               run matmul --n 4096 --impl cuda-naive,cuda-tiled-16,cuda-register-tiled,cublas-sgemm,cublas-tf32
run_point matmul_odd_2047x1999x2049 run matmul --n 2047 --param k=1999 --param cols=2049 --impl cuda-tiled-16,cuda-register-tiled,cublas-sgemm
run_point matmul_2048_tiled_blocks  sweep matmul --n 2048 --impl cuda-tiled-16 --block 8x8,16x16,32x8,32x32

echo
if [[ $failed -gt 0 ]]; then
  echo "$failed point(s) failed; their .txt files say why"
else
  echo "all points ran and verified"
fi
exit $((failed > 100 ? 100 : failed))
