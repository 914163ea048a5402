#!/usr/bin/env bash
# Runs ON the GPU machine: the launch explorer's figures (the vector_add block x grid sweep around multiples of
# the SM count, the CPU/GPU crossover over N, occupancy against the CUDA API), Mandelbrot against the FP32
# FMA kernel, blocks on SMs (traced runs and the instrumentation's overhead), the exercise solutions through
# --kernel-file against the built-in variants, and the GPU test suite, in one device call.
# Check (launchlab-cli check under compute-sanitizer: a solution clean, a missing bounds check and a
# shared-memory race found at their lines), the roofline. Sections: STEPS="tests sweeps overhead mandelbrot
# blocks exercises check roofline" (default all). Run from the repository root (exercises).
# Usage: scripts/gpu/explorer_check.sh BIN_DIR OUT_DIR   (OUT_DIR gets explorer.tar.gz and summary.txt)
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.sh"
STEPS=${STEPS:-tests sweeps overhead mandelbrot blocks exercises check roofline}
export LAUNCHLAB_KERNELS_DIR=${LAUNCHLAB_KERNELS_DIR:-$PWD/kernels}
has() { [[ " $STEPS " == *" $1 "* ]]; }
check_begin explorer "${1:?bin dir}" "${2:?out dir}"
# The GPU tests that start the CLI (worker, check) look here instead of the build machine's path.
export LAUNCHLAB_CLI_PATH=${LAUNCHLAB_CLI_PATH:-$BIN/launchlab-cli} LAUNCHLAB_CLI=${LAUNCHLAB_CLI:-$BIN/launchlab-cli}
# NVRTC is loaded at run time: say where this machine has it.
note "nvrtc: $(ls /usr/local/cuda/lib64/libnvrtc.so.* 2>/dev/null | head -n 1 || echo 'not in /usr/local/cuda/lib64')"

if has tests; then
  timeout 400 "$BIN/launchlab_gpu_tests" > "$E/gpu_tests.txt" 2>&1
  note "launchlab_gpu_tests: exit $?; $(grep -E '^\[  (PASSED|FAILED)  \]' "$E/gpu_tests.txt" | tr '\n' ' ')"
  grep -E '^\[  FAILED  \]' "$E/gpu_tests.txt" | head -n 20 >> "$summary"
fi

if has sweeps; then
  # Grids at k x 132 and k x 132 + 1 (one block more than k full waves of one block per SM), block 32 ... 1024.
  grids=""
  for k in 1 2 3 4 5 6 8 12 16; do grids+="$((132 * k)),$((132 * k + 1)),"; done
  # Grid-stride over a fixed N: one block more than a multiple of 132 gives one SM a block more of the same work.
  step heatmap_vector_add 300 sweep vector_add --impl cuda-grid-stride --n 2^24 --block 32:1024:32 \
    --grid "${grids%,}" --reps 7 --warmup 2 --json "$E/sweep_vector_add_heatmap.json" --csv "$E/sweep_vector_add_heatmap.csv"
fi
if has sweeps || has crossover; then
  step crossover_vector_add 240 sweep vector_add --impl cpu-serial,cpu-parallel,cuda-one-per-thread \
    --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28 --reps 5 --warmup 1 --json "$E/sweep_vector_add_crossover.json"
  grep -h "beats the best CPU" "$E/crossover_vector_add.txt" >> "$summary"
fi
if has sweeps; then
  step occupancy_vector_add 60 occupancy vector_add --impl cuda-one-per-thread --block 32,64,128,256,512,1024 \
    --json "$E/occupancy_vector_add.json"
fi

if has overhead; then
  # The sweep harness's cost per point (target: <= 1 ms), and the pooled pipeline resources under memcheck: a sweep
  # whose points reuse one set of buffers (same sizes) and reallocate it (N changes), then a run of another workload.
  mkdir -p "$E/overhead"
  timeout 300 bash "$(dirname "$0")/sweep_overhead.sh" "$C" "$E/overhead" > "$E/overhead/log.txt" 2>&1
  note "sweep_overhead: exit $?"
  cat "$E/overhead/overhead.txt" >> "$summary" 2>/dev/null
  if command -v nsys > /dev/null; then  # where a point's host time goes: the CUDA API calls of a 125-point sweep
    timeout 120 nsys profile -o "$E/overhead/sweep" --stats=true "$C" sweep vector_add --impl cuda-grid-stride \
      --n 2^16 --block 32:1024:8 --reps 5 --warmup 1 > "$E/overhead/nsys_stats.txt" 2>&1
    note "nsys: exit $?"
    rm -f "$E/overhead/sweep.nsys-rep" "$E/overhead/sweep.sqlite"
  fi
  SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for args in "sweep vector_add --impl cuda-grid-stride,cuda-one-per-thread --block 128,256 --n 2^16,2^18" \
              "run hypot --impl cuda-grid-stride --n 100003"; do
    timeout 300 "$SAN" --tool memcheck --leak-check full --error-exitcode 9 "$C" $args --reps 2 --warmup 1 \
      > "$E/overhead/memcheck_${args%% *}.txt" 2>&1
    note "memcheck $args: exit $? ($(grep -E 'ERROR SUMMARY' "$E/overhead/memcheck_${args%% *}.txt" | tail -n 1))"
  done
fi

if has mandelbrot; then
  step mandelbrot_bench 120 bench --section mandelbrot --json "$E/bench_mandelbrot.json"
  grep -h "mandelbrot f32" "$E/mandelbrot_bench.txt" >> "$summary"
fi
if has blocks; then
  mkdir -p "$E/block_trace"
  timeout 300 bash "$(dirname "$0")/../bench/block_trace_overhead.sh" "$C" "$E/block_trace" 20 \
    > "$E/block_trace/bench.txt" 2>&1
  note "block_trace_overhead: exit $?"
  cat "$E/block_trace/overhead.txt" >> "$summary" 2>/dev/null
fi

if has exercises; then
  ex() {  # ex NAME FILE BUILTIN ARGS…: a reference solution (kernels/FILE) as my-kernel beside the variant it mirrors
    local name=$1 file=$2 builtin=$3
    shift 3
    step "exercise_$name" 120 run "$@" --kernel-file "kernels/$file" --impl "cpu-serial,$builtin,my-kernel" --reps 20 \
      --warmup 3 --json "$E/exercise_$name.json"
    awk -v b="$builtin" '$1 == b || $1 == "my-kernel" { print "  " $0 }' "$E/exercise_$name.txt" >> "$summary"
  }
  ex vector_add vector_add/exercise_solution.cu cuda-one-per-thread vector_add
  ex vector_add_grid_stride vector_add/exercise_grid_stride_solution.cu cuda-grid-stride vector_add --exercise vector_add_grid_stride
  ex hypot hypot/exercise_solution.cu cuda-grid-stride hypot
  ex histogram histogram/exercise_solution.cu cuda-global-atomics histogram
  ex atomic_counter atomic_counter/exercise_solution.cu cuda-atomic atomic_counter
  ex reduce_sum reduce_sum/exercise_solution.cu cuda-warp-shuffle reduce_sum --n 2^24
  ex monte_carlo_pi monte_carlo_pi/exercise_solution.cu cuda-philox monte_carlo_pi
  ex square square/exercise_solution.cu cuda-one-per-thread square --n 2^24
  ex matrix_add_2d matrix_add_2d/exercise_solution.cu cuda-coalesced matrix_add_2d --n 4096
  ex transpose transpose/exercise_solution.cu cuda-tile-padded transpose --n 4096 --block 32x32  # the exercise's 32 x 32 block for both
  ex matmul matmul/exercise_solution.cu cuda-tiled-16 matmul
  ex row_normalize row_normalize/exercise_solution.cu cuda-thread-per-row row_normalize --n 2^22
fi
if has check; then  # expected exits: 0, 1 (memcheck at line 7), 1 (racecheck at line 13), 0
  D=tests/data/check
  sed '/__syncthreads();  \/\/ every step/d' "$D/reduce_sum_shared.cu" > "$E/reduce_sum_shared_race.cu"
  step check_solution 240 check vector_add --kernel-file kernels/vector_add/exercise_solution.cu
  step check_no_bounds_check 240 check vector_add --n 1000 --kernel-file "$D/vector_add_no_bounds_check.cu"
  step check_race 300 check reduce_sum --block 256 --kernel-file "$E/reduce_sum_shared_race.cu"
  step check_shared 300 check reduce_sum --block 256 --kernel-file "$D/reduce_sum_shared.cu"
  grep -h -e ': memcheck: ' -e ': racecheck: ' -e '^check ' -e 'launchlab-cli: check' "$E"/check_*.txt | head -n 20 >> "$summary"
fi
if has roofline; then
  # The roofline's ceilings, then runs whose GFLOP/s and bytes the Roofline tab places under them (JSON: flops, gflops).
  step ceilings 120 ceilings --json "$E/ceilings.json"
  cat "$E/ceilings.txt" >> "$summary"
  step roofline_vector_add 120 run vector_add --n 2^24 --reps 10 --json "$E/roofline_vector_add.json"
  step roofline_polar_distance 120 run polar_distance --n 2^24 --reps 10 --json "$E/roofline_polar_distance.json"
  step roofline_matmul 180 run matmul --n 2048 --impl cuda-naive,cuda-tiled-16,cuda-register-tiled,cublas-sgemm --reps 5 \
    --json "$E/roofline_matmul.json"
  step roofline_mandelbrot 180 run mandelbrot --impl cpu-parallel,cuda-per-pixel,cuda-fma --reps 5 --json "$E/roofline_mandelbrot.json"
fi
cat "$summary"
