#!/usr/bin/env bash
# Runs ON the GPU machine: what another process on the same GPU does to a measurement, and whether the result says
# so. vector_add (cuda-one-per-thread, cuda-vectorized at 2^24) and matmul (cuda-tiled-16, cublas-sgemm at 2048)
# are measured alone, then while a second launchlab-cli streams a large vector_add on the same GPU for the whole
# measurement; for each, the kernel medians, the inflation (contended / alone) and what NVML reported (gpu_sharing:
# flagged or not, the other process, utilisation and clocks before and after) come out as a Markdown table for
# docs/PERFORMANCE.md, the JSON of every run under OUT_DIR.
# Usage: scripts/gpu/contention_check.sh LAUNCHLAB_CLI OUT_DIR
set -u
C=${1:?launchlab-cli}
OUT=${2:?out dir}
mkdir -p "$OUT"
measure() {  # NAME ARGS…: one run's JSON in OUT/NAME.json
  local name=$1
  shift
  "$C" run "$@" --reps 20 --warmup 2 --json "$OUT/$name.json" >"$OUT/$name.txt" 2>&1 || echo "run $name failed (see $OUT/$name.txt)" >&2
}
HEAVY=(run vector_add --n 2^27 --impl cuda-one-per-thread --reps 100000 --warmup 0)  # the most reps a run takes
cases=("vector_add --n 2^24 --impl cuda-one-per-thread,cuda-vectorized" "matmul --n 2048 --impl cuda-tiled-16,cublas-sgemm")
names=(vector_add matmul)
for k in "${!cases[@]}"; do
  # shellcheck disable=SC2086  # the case's words are the run's arguments
  measure "${names[$k]}_alone" ${cases[$k]}
done
"$C" "${HEAVY[@]}" >"$OUT/heavy.txt" 2>&1 &
heavy=$!
trap 'kill $heavy 2>/dev/null; wait $heavy 2>/dev/null' EXIT
# Until the heavy process is on the GPU (its context and 1.5 GiB of inputs): nvidia-smi lists it.
for _ in $(seq 1 100); do
  nvidia-smi --query-compute-apps=pid --format=csv,noheader 2>/dev/null | grep -qx "$heavy" && break
  sleep 0.2
done
sleep 2  # into its timed repetitions
for k in "${!cases[@]}"; do
  # shellcheck disable=SC2086
  measure "${names[$k]}_shared" ${cases[$k]}
done
kill $heavy 2>/dev/null
python3 - "$OUT" "$heavy" "${names[@]}" <<'PY'
import json, sys
out, heavy, names = sys.argv[1], sys.argv[2], sys.argv[3:]
def load(name):
    return json.load(open(f"{out}/{name}.json"))
def nvml(doc):
    g = doc.get("gpu_sharing")
    if not g:
        return "not checked"
    b, a = g["before"], g["after"]
    if not b["ok"]:
        return g["note"]
    procs = ", ".join(f'{p["pid"]} {p["name"]}' for p in b["processes"]) or "none"
    return (f'{"FLAGGED" if g["shared"] else "not flagged"}: {g["note"] or "-"}; before: procs {procs}, '
            f'{b["gpu_util_percent"]}% busy, SM {b["sm_clock_mhz"]} MHz; after: {a["gpu_util_percent"]}% busy, '
            f'SM {a["sm_clock_mhz"]} MHz')
print(f"second process: launchlab-cli pid {heavy} streaming vector_add 2^27 (cuda-one-per-thread)\n")
print("| workload | implementation | kernel ms alone | kernel ms shared | inflation | NVML alone | NVML shared |")
print("|---|---|---:|---:|---:|---|---|")
for n in names:
    alone, shared = load(f"{n}_alone"), load(f"{n}_shared")
    for ia in alone["implementations"]:
        if ia["status"] != "ok" or not ia["gpu"]:
            continue
        ish = next(i for i in shared["implementations"] if i["id"] == ia["id"])
        ka, ks = ia["phases"]["kernel"]["median_ms"], ish["phases"]["kernel"]["median_ms"]
        print(f'| {n} | {ia["id"]} | {ka:.4f} | {ks:.4f} | {ks / ka:.2f}x | {nvml(alone)} | {nvml(shared)} |')
PY
