#!/usr/bin/env bash
# Runs ON the GPU machine (no Qt, no compiler needed): the test binaries built on the build machine,
# every workload at 2^24 (matrix workloads 4096², matmul 2048³) with --json, the foundation bench, and
# compute-sanitizer passes.
# Usage: [SKIP_BENCH="name …"] [STEPS="tests runs extra sanitizers"] scripts/gpu/device_check.sh BIN_DIR OUT_DIR [full|quick]
# STEPS (default: all four) splits the check over several device calls of at most 600 s each.
# With the memory chapter, `launchlab-cli bench` alone takes about 510 s on an H200 (matmul 4096^3's one-core
# reference, the coalescing curve's inputs): a device call is at most 600 s, so run `quick` in one call and the bench
# (stdbuf -oL launchlab-cli bench --json F) in another.
# Everything is packed into OUT_DIR/evidence.tar.gz, with OUT_DIR/summary.txt beside it (the device tool returns
# at most 8 files), also when a step times out.
set -u
BIN=$(cd "${1:?bin dir}" && pwd)
OUTDIR=${2:?out dir}
MODE=${3:-full}
WORK=$(mktemp -d)  # evidence is assembled outside OUT_DIR; OUT_DIR gets the tarball and the summary only
E=$WORK/evidence
mkdir -p "$E" "$OUTDIR"
export LD_LIBRARY_PATH="$BIN/../lib:${LD_LIBRARY_PATH:-}"
export LAUNCHLAB_CLI="$BIN/launchlab-cli"
export LAUNCHLAB_WRITE_HELPER="$BIN/helpers/atomic_write_helper"
summary=$E/summary.txt
pack() { tar -C "$WORK" -czf "$OUTDIR/evidence.tar.gz" evidence 2>/dev/null; cp "$summary" "$OUTDIR/summary.txt" 2>/dev/null; }
trap pack EXIT
note() { echo "$*" | tee -a "$summary"; }
want() { case " ${STEPS:-tests runs extra sanitizers} " in *" $1 "*) return 0 ;; esac; return 1; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,ecc.mode.current,clocks.max.sm,clocks.max.mem --format=csv
  nvidia-smi
  uname -a
  nproc
} > "$E/machine.txt" 2>&1
note "== machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
"$BIN/launchlab-cli" info > "$E/info.txt" 2>&1
"$BIN/launchlab-cli" info --json > "$E/info.json" 2>&1

status=0
want tests && for t in launchlab_core_tests launchlab_kernel_tests launchlab_cli_tests launchlab_gpu_tests; do
  [ -x "$BIN/$t" ] || { note "$t: missing"; status=1; continue; }
  start=$(date +%s)
  timeout 400 "$BIN/$t" --gtest_color=no > "$E/$t.log" 2>&1
  rc=$?
  note "$t: exit $rc ($(( $(date +%s) - start )) s) $(grep -E '^\[  (PASSED|FAILED)' "$E/$t.log" | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
done

want runs && for w in $("$BIN/launchlab-cli" list --json | python3 -c 'import json,sys; print(" ".join(w["id"] for w in json.load(sys.stdin)["workloads"]))'); do
  case $w in
    matmul) n=2048 ;;                   # 2 n^3 flops, and the reference runs on one core
    matrix_add_2d | transpose) n=4096 ;; # n is the rows of an n x n matrix (16Mi^2 is over the 2^32-element limit)
    row_col_sums) n=16384 ;;            # the seed's 16384 x 16384
    mandelbrot) n=4096 ;;               # a 4096 x 4096 image (at most 32768 rows)
    groupby_sum) n=16000000 ;;          # 16M rows (the seed: 1M; both in the group-by ratio below)
    z_mass | histogram_contention) n=10000000 ;;  # the tutorial's 10M events
    *) n=16Mi ;;
  esac
  timeout 120 "$BIN/launchlab-cli" run "$w" --n $n --reps 10 --warmup 2 --json "$E/run_${w}.json" > "$E/run_${w}.txt" 2>&1
  note "run $w n=$n: exit $?"
done

# The group-by target (best variant >= 0.8x CUB's reduce-by-key, kernel time) at the seed's 1M rows and 16M,
# and the Monte Carlo areas' trials/s (circle at the seed's 1000 x 2^20; Mandelbrot at 16 x 2^20).
if want extra; then
for n in 1000000 16000000; do
  timeout 120 "$BIN/launchlab-cli" run groupby_sum --n $n --reps 20 --warmup 3 --impl cpu-parallel,cuda-atomics,cuda-atomics-warp-runs,cuda-thread-per-segment,cuda-warp-per-segment,cuda-cub \
    --json "$E/groupby_sum_$n.json" > "$E/groupby_sum_$n.txt" 2>&1
  note "groupby_sum n=$n: exit $?"
done
timeout 300 "$BIN/launchlab-cli" run monte_carlo_area --n 1000Mi --param convergence=none --impl cpu-parallel,cuda \
  --reps 3 --warmup 1 --json "$E/mc_circle_1000Mi.json" > "$E/mc_circle_1000Mi.txt" 2>&1
note "monte_carlo_area circle 1000Mi: exit $?"
timeout 300 "$BIN/launchlab-cli" run monte_carlo_area --n 16Mi --param shape=mandelbrot --impl cpu-parallel,cuda \
  --reps 3 --warmup 1 --json "$E/mc_mandelbrot_16Mi.json" > "$E/mc_mandelbrot_16Mi.txt" 2>&1
note "monte_carlo_area mandelbrot 16Mi: exit $?"

# The core sweep on the device (the code behind the window's block-size sweep): every block size of two kernels.
timeout 120 "$BIN/launchlab-cli" sweep vector_add --n 16Mi --impl cuda-one-per-thread,cuda-grid-stride \
  --block 32:1024:32 --reps 10 --warmup 2 --json "$E/sweep_vector_add_block.json" --csv "$E/sweep_vector_add_block.csv" \
  > "$E/sweep_vector_add_block.txt" 2>&1
note "sweep vector_add block 32:1024:32: exit $?"
# The GPU plot geometry: M4 decimation of 2^20, 2^24 and 2^27 f32 samples (target: 2^27 in <= 0.3 ms).
timeout 120 "$BIN/launchlab-cli" bench-geometry --json "$E/bench_geometry.json" > "$E/bench_geometry.txt" 2>&1
note "bench-geometry: exit $?"
cat "$E/bench_geometry.txt" >> "$summary"
fi

if [ "$MODE" = full ]; then
  timeout 560 "$BIN/launchlab-cli" bench --json "$E/bench.json" > "$E/bench.txt" 2>&1
  note "bench: exit $?"
  cat "$E/bench.txt" >> "$summary"
  for s in scripts/bench/*.sh; do
    [ -f "$s" ] || continue
    name=$(basename "$s" .sh)
    case " ${SKIP_BENCH:-} " in *" $name "*) note "$name: skipped (SKIP_BENCH)"; continue ;; esac
    mkdir -p "$E/$name"
    timeout "${BENCH_TIMEOUT:-300}" bash "$s" "$BIN/launchlab-cli" "$E/$name" > "$E/$name/summary.txt" 2>&1
    note "$name: exit $?"
    tail -n 40 "$E/$name/summary.txt" >> "$summary"
  done
fi

if want sanitizers && command -v compute-sanitizer >/dev/null; then
  compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/launchlab-cli" run vector_add --n 1000003 --reps 1 --warmup 0 \
    > "$E/memcheck_vector_add.txt" 2>&1
  note "compute-sanitizer memcheck vector_add: exit $?"
  # The shared-memory and 2-D kernels, memcheck and racecheck, on shapes with tails: matmul (257 x 1000 x 383,
  # bounds-checked; 256 x 136 x 384, the unchecked 16-byte path), transpose's tiles with the auto block, 16x16 and
  # 33x3, matrix_add_2d, row_col_sums (CUB block reduce + atomics) and coalescing.
  while read -r name args; do
    [ -n "$name" ] || continue
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$BIN/launchlab-cli" run $args --reps 1 --warmup 0 \
        > "$E/${tool}_${name}.txt" 2>&1
      note "compute-sanitizer $tool $name: exit $?"
    done
  done <<'CASES'
matmul_257x1000x383 matmul --n 257 --param k=1000 --param cols=383 --impl cuda-naive,cuda-tiled-16,cuda-register-tiled
matmul_256x136x384 matmul --n 256 --param k=136 --param cols=384 --impl cuda-naive,cuda-tiled-16,cuda-register-tiled
transpose_100x103 transpose --n 100 --param cols=103 --impl cuda-naive,cuda-tile,cuda-tile-padded,cuda-tile-padded-64
transpose_100x103_16x16 transpose --n 100 --param cols=103 --impl cuda-naive,cuda-tile,cuda-tile-padded,cuda-tile-padded-64 --block 16x16
transpose_100x103_33x3 transpose --n 100 --param cols=103 --impl cuda-naive,cuda-tile,cuda-tile-padded,cuda-tile-padded-64 --block 33x3
matrix_add_2d_100x103 matrix_add_2d --n 100 --param cols=103
row_col_sums_300x517 row_col_sums --n 300 --param cols=517
row_col_sums_301x516_vec16 row_col_sums --n 301 --param cols=516 --impl cuda-block-reduce
row_col_sums_301x516_f64 row_col_sums --n 301 --param cols=516 --dtype f64 --impl cuda-block-reduce
transpose_130x200_32x16 transpose --n 130 --param cols=200 --impl cuda-tile-padded,cuda-tile-padded-64 --block 32x16
transpose_130x200_f64 transpose --n 130 --param cols=200 --dtype f64 --impl cuda-tile-padded-64
swap_with_shared_5000_seg1024 swap_with_shared --n 5000 --param segment=1024 --impl cuda-shared
swap_with_shared_5000_seg100_block64 swap_with_shared --n 5000 --param segment=100 --block 64 --impl cuda-shared
coalescing_100003 coalescing --n 100003
groupby_sum_100003 groupby_sum --n 100003 --block 33
monte_carlo_area_mandelbrot_31 monte_carlo_area --n 31 --param shape=mandelbrot --block 33
z_mass_100003 z_mass --n 100003
histogram_contention_100003_bins75 histogram_contention --n 100003 --param bins=75
histogram_contention_100003_bins1 histogram_contention --n 100003 --param bins=1
CASES
fi
cat "$summary"
exit $status
