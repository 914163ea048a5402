#!/usr/bin/env bash
# What counters cost per lesson kernel, run on the GPU machine (as root, so that CUPTI is allowed):
#
#   scripts/bench/counters_cost.sh LAUNCHLAB_CLI OUTPUT_DIR [REPS]     (CUPTI's libraries on LD_LIBRARY_PATH)
#
# For each point (a lesson's built-in kernel at the lesson's size), REPS processes of
#   launchlab-cli run W --impl I --reps 20 --warmup 3 --counters=accesses --json …   and the same with =hardware,
# alternated so that neither gets a warmer GPU. Each run times the plain kernel with CUDA events (the median of its 20
# timed repetitions: the "kernel" phase) and then measures the counters on one more, untimed run whose wall time is
# `profile_ms`: for the accesses, the PTX rewrite, the JIT of the instrumented kernel, the run and the read-back; for
# CUPTI, its configuration, every replay pass and the decoding. The table gives the medians over the REPS processes:
# the plain kernel, each way's profiled phase, CUPTI's passes, and what each way adds to the plain kernel; the
# issue's target is ≤ 300 ms added per kernel by the accesses, below CUPTI's. Every process's table and JSON are in
# OUTPUT_DIR/<point>_<source>_<k>.{txt,json}; the table in OUTPUT_DIR/counters_cost.txt (and .csv). The exit status
# is the number of runs that failed (capped at 100).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib/args.sh"
bench_args 5 "$@"

# point NAME METRIC ARGS…: REPS runs of each counter source, then the point's line of the table.
point() {
  local name=$1 metric=$2
  shift 2
  for ((k = 1; k <= reps; k++)); do
    for source in accesses hardware; do
      local stem="$out/${name}_${source}_$k"
      "$cli" run "$@" --reps 20 --warmup 3 --counters="$source" --metrics "$metric" --json "$stem.json" \
        >"$stem.txt" 2>&1 || { failed=$((failed + 1)); echo "  -> $name $source $k failed; see $stem.txt"; }
    done
  done
  python3 - "$out" "$name" "$reps" <<'PY' | tee -a "$out/counters_cost.txt"
import csv, json, statistics, sys
out, name, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
kernel, phase, passes, values, errors = [], {"accesses": [], "hardware": []}, [], {"accesses": [], "hardware": []}, set()
for k in range(1, reps + 1):
    for source in ("accesses", "hardware"):
        try:
            doc = json.load(open(f"{out}/{name}_{source}_{k}.json"))
        except (OSError, ValueError):
            continue
        for impl in doc["implementations"]:
            c = impl.get("counters")
            if not impl["gpu"] or impl["status"] != "ok" or not c:
                continue
            kernel.append(impl["phases"]["kernel"]["median_ms"])
            if "error" in c:
                errors.add(f"{source}: {c['error']['message']}")
                continue
            phase[source].append(c["profile_ms"])
            values[source] += list(c["values"].values())[:1]
            if source == "hardware":
                passes.append(c["passes"])
med = lambda xs: statistics.median(xs) if xs else float("nan")
k, a, h = med(kernel), med(phase["accesses"]), med(phase["hardware"])
row = [name, f"{k:.4f}", f"{a:.1f}", f"{h:.1f}", f"{med(passes):.0f}", f"{a - k:.1f}", f"{h - k:.1f}",
       f"{med(values['accesses']):.4g}", f"{med(values['hardware']):.4g}"]
print("{:<30} {:>10} {:>12} {:>12} {:>7} {:>12} {:>12} {:>11} {:>11}".format(*row))
for e in sorted(errors):
    print(f"  {e}")
with open(f"{out}/counters_cost.csv", "a", newline="") as f:
    csv.writer(f).writerow(row)
PY
}

header=(point "kernel ms" "accesses ms" "CUPTI ms" passes "+accesses" "+CUPTI" "value acc" "value hw")
printf '%-30s %10s %12s %12s %7s %12s %12s %11s %11s\n' "${header[@]}" | tee "$out/counters_cost.txt"
(IFS=,; echo "${header[*]}") >"$out/counters_cost.csv"
point coalescing_strided_16        sectors_per_request coalescing --impl cuda-strided --param stride=16
point coalescing_coalesced         sectors_per_request coalescing --impl cuda-coalesced
point transpose_tile_4096          bank_conflicts      transpose --n 4096 --impl cuda-tile
point transpose_tile_padded_4096   bank_conflicts      transpose --n 4096 --impl cuda-tile-padded
point matrix_add_uncoalesced       sectors_per_request matrix_add_2d --impl cuda-uncoalesced
point matmul_tiled_1024            bank_conflicts      matmul --n 1024 --impl cuda-tiled-16
echo "kernel ms: the plain kernel's median (CUDA events); accesses / CUPTI ms: the profiled phase's wall time (median" \
  "of $reps processes); +: added to the plain kernel; value: the point's counter, each way." | tee -a "$out/counters_cost.txt"
exit $((failed > 100 ? 100 : failed))
