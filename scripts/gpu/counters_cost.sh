#!/usr/bin/env bash
# A benchmark, not a test: what hardware counters cost. For three workloads, the wall time of a plain run against
# the same run with every counter (profile --metrics all), and per implementation the replay passes, the kernels
# and launches profiled and the profiled phase's wall time (CUPTI configuration, all passes, decoding), per launch.
# Usage: scripts/gpu/counters_cost.sh LAUNCHLAB_CLI OUT_DIR   (CUPTI's libraries on LD_LIBRARY_PATH)
set -u
C=${1:?launchlab-cli}
OUT=${2:?out dir}
mkdir -p "$OUT"
ms() { echo $(( $(date +%s%N) / 1000000 )); }
cost() {  # cost NAME ARGS…
  local name=$1 t0 t1 t2
  shift
  t0=$(ms)
  "$C" run "$@" --reps 1 --warmup 0 > "$OUT/$name.plain.txt" 2>&1
  t1=$(ms)
  "$C" profile "$@" --reps 1 --warmup 0 --metrics all --json "$OUT/$name.json" > "$OUT/$name.profile.txt" 2>&1
  t2=$(ms)
  python3 - "$OUT/$name.json" "$name" $((t1 - t0)) $((t2 - t1)) <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]}: process wall {sys.argv[3]} ms plain run, {sys.argv[4]} ms with every counter")
for i in doc["implementations"]:
    c = i.get("counters")
    if not c:
        continue
    if "error" in c:
        print(f"  {i['id']}: {c['error']['message']}")
        continue
    launches = sum(k["launches"] for k in c["kernels"]) or 1
    print(f"  {i['id']}: {len(c['kernels'])} kernel(s), {launches} launch(es), {c['passes']} passes, "
          f"profiled phase {c['profile_ms']:.1f} ms = {c['profile_ms'] / launches:.1f} ms per launch; "
          f"kernel median {i['phases'].get('kernel', {}).get('median_ms', float('nan')):.3f} ms")
PY
}
{
  cost vector_add vector_add --n 2^24 --impl cuda-one-per-thread,cuda-grid-stride
  cost transpose transpose --n 8192 --impl cuda-naive,cuda-tile,cuda-tile-padded
  cost matmul matmul --n 1024 --impl cuda-tiled-16,cuda-register-tiled,cublas-sgemm
} | tee "$OUT/cost.txt"
