#!/usr/bin/env bash
# Benchmark points of the memory chapter (issue 9: 2-D grids, coalescing, shared memory), run on the GPU machine.
#
#   scripts/bench/workloads_memory.sh LAUNCHLAB_CLI OUTPUT_DIR [REPS]
#
# Writes OUTPUT_DIR/<point>.json and .txt per run point and OUTPUT_DIR/<point>.csv per sweep, then prints each
# point's table. The targets' ratios (padded transpose against cudaMemcpy, matrix_add_2d against vector_add at the
# same n, matmul's best hand-written kernel against cuBLAS SGEMM) are computed in one run by `launchlab-cli bench`
# (section "memory chapter"). The exit status is the number
# of points that failed (capped at 100).
set -u
cli=${1:?usage: $0 LAUNCHLAB_CLI OUTPUT_DIR [REPS]}
out=${2:?usage: $0 LAUNCHLAB_CLI OUTPUT_DIR [REPS]}
reps=${3:-20}
[[ -x "$cli" ]] || { echo "$0: $cli is not an executable" >&2; exit 2; }
mkdir -p "$out" || exit 2
failed=0

# run_point NAME SUBCOMMAND ARGS…: one `launchlab-cli run|sweep`, its table in $out/NAME.txt.
run_point() {
  local name=$1 sub=$2
  shift 2
  printf '%-30s launchlab-cli %s %s\n' "$name" "$sub" "$*"
  local extra=(--json "$out/$name.json")
  [[ $sub == sweep ]] && extra+=(--csv "$out/$name.csv")
  "$cli" "$sub" "$@" --reps "$reps" --warmup 2 "${extra[@]}" >"$out/$name.txt" 2>&1
  local rc=$?
  [[ $rc -eq 0 ]] || { failed=$((failed + 1)); echo "  -> exit $rc; see $out/$name.txt"; }
  grep -E '^ *(cpu|cuda|cublas)|GB/s|GFLOP/s' "$out/$name.txt" | head -n 14 | sed 's/^/     /'
}

# matrix_add_2d: the seed's launch, then 8192^2 (the 0.95x-of-vector_add target's size) with auto launches.
run_point matrix_add_seed_2048      run matrix_add_2d --n 2048 --grid 64x64 --block 32x32 --param input=arange
run_point matrix_add_8192           run matrix_add_2d --n 8192 --impl cuda-coalesced,cuda-uncoalesced
run_point matrix_add_8192_blocks    sweep matrix_add_2d --n 8192 --impl cuda-coalesced --block 32x1,32x4,32x8,32x16,32x32,16x16,8x8,64x4

# transpose: the seed's launch, then 8192^2 (the 0.90x-of-memcpy target's size), odd sides, and a block sweep of
# the tiles (32 x R threads per 32 x 32 tile: 32 / R elements per thread).
run_point transpose_seed_4096       run transpose --n 4096 --grid 128x128 --block 32x32 --param input=arange
run_point transpose_8192            run transpose --n 8192 --impl cuda-naive,cuda-tile,cuda-tile-padded
run_point transpose_8192_f64        run transpose --n 8192 --dtype f64 --impl cuda-naive,cuda-tile,cuda-tile-padded
run_point transpose_odd_8191x8193   run transpose --n 8191 --param cols=8193 --impl cuda-naive,cuda-tile,cuda-tile-padded
run_point transpose_8192_blocks     sweep transpose --n 8192 --impl cuda-tile,cuda-tile-padded --block 32x2,32x4,32x8,32x16,32x32,16x16

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
