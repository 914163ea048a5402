#!/usr/bin/env bash
# Runs ON the GPU machine: hardware counters through CUPTI's range profiler. The counter tests of the GPU suite
# (CountersGpu.*: sectors per request, bank conflicts, DRAM bytes), profile on the memory lessons (coalescing at
# stride 1 and 32, the transpose tiles unpadded and padded, vector_add, matmul), and the cost benchmark
# (counters_cost.sh). The GPU machine has no CUPTI: its three libraries are carried from the build machine's toolkit
# (/usr/local/cuda-13.0/lib64: libcupti.so.13, libnvperf_host.so, libnvperf_target.so) into BIN_DIR/../cupti, or
# the folder $CUPTI_DIR names.
# Usage: scripts/gpu/counters_check.sh BIN_DIR OUT_DIR   (BIN_DIR: launchlab-cli and launchlab_gpu_tests)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib/check.sh"
check_begin counters "$1" "$2"
CUPTI=${CUPTI_DIR:-$BIN/../cupti}
for f in libcupti.so.13 libnvperf_host.so libnvperf_target.so; do
  [ -e "$CUPTI/$f" ] || note "MISSING $CUPTI/$f: the counters will say which library is missing"
done
[ -d "$CUPTI" ] && export LD_LIBRARY_PATH="$(cd "$CUPTI" && pwd):$LD_LIBRARY_PATH"

# A skipped counter test means CUPTI was not found: it is reported as such, never as a pass.
timeout 600 "$BIN/launchlab_gpu_tests" --gtest_filter='CountersGpu.*' > "$E/gpu_tests.txt" 2>&1
note "CountersGpu tests: exit $?; $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$E/gpu_tests.txt" | tr '\n' ' ')"
grep -E '^\[  (FAILED|SKIPPED) |Failure|Which is|actual|counters need|error' "$E/gpu_tests.txt" | head -n 30 >> "$summary"

mem=sectors_per_request,store_sectors_per_request,dram_bytes_read,dram_bytes_written,global_load_efficiency,bandwidth_pct_of_memcpy
step coalescing_stride1 120 profile coalescing --n 2^22 --param stride=1 --metrics "$mem" --json "$E/coalescing_stride1.json"
step coalescing_stride32 120 profile coalescing --n 2^22 --param stride=32 --metrics "$mem" --json "$E/coalescing_stride32.json"
step transpose 180 profile transpose --n 8192 --impl cuda-naive,cuda-tile,cuda-tile-padded \
  --metrics bank_conflicts,bank_conflicts_ld,bank_conflicts_st,sectors_per_request,store_sectors_per_request,bandwidth_pct_of_memcpy \
  --json "$E/transpose.json"
step vector_add 180 profile vector_add --n 2^27 --impl cuda-one-per-thread,cuda-grid-stride,cuda-vectorized \
  --metrics dram_bytes_read,dram_bytes_written,sectors_per_request,bandwidth_pct_of_memcpy --json "$E/vector_add.json"
step matmul 300 profile matmul --n 1024 --impl cuda-naive,cuda-tiled-16,cuda-register-tiled,cublas-sgemm --metrics all \
  --json "$E/matmul.json"
step run_counters 120 run coalescing --n 2^22 --counters --json "$E/run_counters.json"
# The two kernels furthest from their limit, each against its reference in one run, and the counters that explain
# the gap: the padded transpose tiles against cudaMemcpy (8192^2 f32), the register-tiled SGEMM against cuBLAS
# (4096^3 f32).
step bench_gap 300 bench --section memory,matmul --json "$E/bench_gap.json"
gap=achieved_occupancy,theoretical_occupancy,eligible_warps_per_cycle,dram_bytes_read,dram_bytes_written,bandwidth_pct_of_memcpy,sectors_per_request,store_sectors_per_request,bank_conflicts,instructions
step transpose_gap 180 profile transpose --n 8192 --impl cuda-tile-padded,cuda-tile-padded-64 --metrics "$gap" \
  --json "$E/transpose_gap.json"
step matmul_gap 300 profile matmul --n 4096 --impl cuda-register-tiled,cublas-sgemm --metrics all \
  --json "$E/matmul_gap.json"
# The one-line refusals, with the GPU present.
step unknown_metric 30 profile coalescing --metrics bogus_metric

# The figures a reader looks for, from the JSON (value per implementation and counter).
python3 - "$E" <<'PY' | tee -a "$summary"
import json, os, sys
for name in ["coalescing_stride1", "coalescing_stride32", "transpose", "vector_add", "matmul", "run_counters",
             "transpose_gap", "matmul_gap"]:
    path = os.path.join(sys.argv[1], name + ".json")
    if not os.path.exists(path):
        print(f"{name}: no JSON")
        continue
    for i in json.load(open(path))["implementations"]:
        c = i.get("counters")
        if not c:
            continue
        if "error" in c:
            print(f"{name} {i['id']}: {c['error']['message']}")
            continue
        vals = " ".join(f"{k}={v:.4g}" for k, v in c["values"].items() if v is not None)
        print(f"{name} {i['id']}: passes={c['passes']} profile_ms={c['profile_ms']:.0f} {vals}"
              + (f" unavailable={list(c['unavailable'])}" if c.get("unavailable") else ""))
PY

"$HERE/counters_cost.sh" "$C" "$E/cost" > /dev/null 2>&1
note "cost benchmark: exit $?"
cat "$E/cost/cost.txt" >> "$summary" 2>/dev/null
