#!/usr/bin/env bash
# Runs ON the GPU machine: kernels written in Numba (launchlab/numba/numba.h), end to end. Needs a Python with numba-cuda
# (LAUNCHLAB_PYTHON, default python3; NumPy 2.5 lacks np.row_stack, which the helper and the timing script put back).
#   1. every exercise's Numba solution verifies at three sizes, one odd (1-D and 2-D launches), beside the built-in
#      variant it mirrors; every starting file fails verification;
#   2. check finds a planted out-of-bounds access (memcheck) and a planted race (racecheck) at their Python lines;
#   3. course run ID --numba for every experiment with a seed kernel;
#   4. the first compile (cold cache, helper start included) and a cached one, timed: targets 2 s and 0.2 s;
#   5. vector_add's kernel time through LaunchLab against the notebook's own launch (numba_notebook_timing.py).
# Usage: scripts/gpu/numba_check.sh BIN_DIR OUT_DIR
set -u
. "$(dirname "$0")/lib/check.sh"
check_begin numba_check "${1:?bin dir}" "${2:?out dir}"
K=$(cd "$(dirname "$0")/../../kernels" && pwd)
export LAUNCHLAB_PYTHON=${LAUNCHLAB_PYTHON:-python3}
export LAUNCHLAB_CACHE_DIR=$WORK/cache

# exercise id, workload, --exercise option, the built-in it mirrors, three sizes (n; rows for the matrices)
while read -r id w exopt mirror sizes; do
  file=$K/$w/exercise${id#"$w"}
  [ "$exopt" = - ] && exopt="" || exopt="--exercise $exopt"
  for n in ${sizes//,/ }; do
    step "solution_${id}_$n" 300 run "$w" $exopt --kernel-file "${file}_solution.py" --impl "$mirror,my-kernel" --n "$n"
  done
  step "starting_$id" 300 run "$w" $exopt --kernel-file "$file.py" --impl my-kernel --n "${sizes%%,*}"
  grep -q 'exit 1 ' <(tail -1 "$summary") && note "  starting file fails verification: good" \
    || note "  STARTING FILE DID NOT FAIL"
done <<'LIST'
vector_add vector_add - cuda-one-per-thread 1001,65536,16777216
vector_add_grid_stride vector_add vector_add_grid_stride cuda-grid-stride 1001,65536,16777216
hypot hypot - cuda-grid-stride 1001,65536,16777216
histogram histogram - cuda-global-atomics 1001,65536,16777216
atomic_counter atomic_counter - cuda-atomic 1001,65536,1048576
reduce_sum reduce_sum - cuda-warp-shuffle 1001,65536,16777216
monte_carlo_pi monte_carlo_pi - cuda-philox 1001,65536,16777216
square square - cuda-one-per-thread 1001,65536,16777216
matrix_add_2d matrix_add_2d - cuda-coalesced 257,1000,4096
transpose transpose - cuda-tile-padded 257,1000,4096
matmul matmul - cuda-tiled-16 257,500,1024
row_normalize row_normalize - cuda-thread-per-row 1001,4096,65536
LIST

# 2. planted bugs: an add without its bounds check (odd n: the last block reads and writes past the end, line 7),
#    and a transpose without cuda.syncthreads() (threads read tile elements others have not written yet, line 11).
cat > "$E/oob.py" <<'PY'
from numba import cuda


@cuda.jit
def vector_add(x, y, out):
    i = cuda.grid(1)
    out[i] = x[i] + y[i]
PY
cat > "$E/race.py" <<'PY'
from numba import cuda, float32


@cuda.jit
def tile_transpose(a, transposed):
    tile = cuda.shared.array((32, 33), float32)
    a_col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    a_row = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    tile[cuda.threadIdx.y, cuda.threadIdx.x] = a[a_row, a_col]
    t_col = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.x
    transposed[cuda.blockIdx.x * 32 + cuda.threadIdx.y, t_col] = tile[cuda.threadIdx.x, cuda.threadIdx.y]
PY
step check_oob 600 check vector_add --kernel-file "$E/oob.py" --n 1001 --block 256
grep -E 'oob.py:7' "$E/check_oob.txt" | head -3 | tee -a "$summary"
step check_race 600 check transpose --kernel-file "$E/race.py" --n 1024
grep -E 'race.py:(9|11)' "$E/check_race.txt" | head -3 | tee -a "$summary"

# 3. the seed's own kernels beside LaunchLab's variants: every experiment a seed kernel's header names
for id in $(sed -n 's/^# experiments://p' "$K"/*/seed_*.py); do
  step "course_$id" 600 course run "$id" --numba
done

# 4. compile time: cold (an empty cache: the helper, Numba's import and compile) and cached
rm -rf "$LAUNCHLAB_CACHE_DIR"
for pass in cold cached; do
  s=$(date +%s.%N)
  step "compile_$pass" 120 compile vector_add --kernel-file "$K/vector_add/exercise_solution.py"
  note "  compile $pass: $(echo "$(date +%s.%N) - $s" | bc) s (targets: cold <= 2 s, cached <= 0.2 s)"
done

# 5. the same kernel timed by LaunchLab and by the notebook's own launch (median kernel ms, 16Mi float32, block 256)
step timing_launchlab 300 run vector_add --kernel-file "$K/vector_add/exercise_solution.py" --impl my-kernel \
  --n 16Mi --block 256 --reps 50 --json "$E/timing_launchlab.json"
"$LAUNCHLAB_PYTHON" "$(dirname "$0")/numba_notebook_timing.py" "$K/vector_add/exercise_solution.py" 16777216 256 50 \
  > "$E/timing_notebook.txt" 2>&1
note "notebook launch: $(tail -1 "$E/timing_notebook.txt")"
python3 -c "
import json; r = json.load(open('$E/timing_launchlab.json'))
for i in r['implementations']:
    if i['id'] == 'my-kernel': print('launchlab my-kernel kernel median ms:', i['phases']['kernel']['median_ms'])
" 2>&1 | tee -a "$summary"
