#!/usr/bin/env bash
# ATLAS Project 1 and the Z mass (z_mass, histogram_contention), run on the GPU machine.
#
#   scripts/bench/workloads_atlas_histogram.sh LAUNCHLAB_CLI OUTPUT_DIR [REPS]
#
# Writes OUTPUT_DIR/<point>.json and .txt per point (and .csv for the sweep), then prints each point's table and
# OUTPUT_DIR/contention_curve.txt: kernel time against bins (1200 -> 1) for each CUDA histogram variant, with a bar
# of the global atomics' time. The exit status is the number of points that failed (capped at 100).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib/args.sh"
bench_args 10 "$@"

show='^ *(cpu|cuda)|muons_per_s|z_mass|z_width|private_bytes|Z fit'
show_lines=24
source "$(dirname "${BASH_SOURCE[0]}")/lib/run_point.sh"

# z_mass at the tutorial's 10M events: every variant against cpu-serial, muons_per_s, the Z fit.
run_point z_mass_10M               run z_mass --n 10000000
# Project 1 (a) against (b): 120 bins per thread (4.8 GB), then the 1200-bin start of the sweep.
run_point histogram_private_120    run histogram_contention --n 10000000 --param bins=120
run_point histogram_1200           run histogram_contention --n 10000000 --param bins=1200
# (c) the contention sweep.
bins=1200,600,300,150,75,60,30,15,10,5,4,3,2,1
run_point contention_sweep         sweep histogram_contention --n 10000000 --param bins=$bins \
  --impl cuda-global-atomics,cuda-shared-atomics,cuda-shared-per-lane
{
  echo "kernel median (ms) against bins, 10M masses; bar: cuda-global-atomics (60 # = its slowest point)"
  printf '%6s %14s %14s %14s\n' bins global shared per-lane
  awk -F, 'NR > 1 && $4 == "ok" { t[$1, $2] = $6; seen[$1] = 1 }
    END {
      n = split("'"${bins//,/ }"'", order, " ")
      top = 0
      for (k = 1; k <= n; ++k) if (t[order[k], "cuda-global-atomics"] + 0 > top) top = t[order[k], "cuda-global-atomics"] + 0
      for (k = 1; k <= n; ++k) {
        b = order[k]; g = t[b, "cuda-global-atomics"]; bar = ""
        for (i = 0; top > 0 && i < int(60 * g / top + 0.5); ++i) bar = bar "#"
        printf "%6s %14s %14s %14s  %s\n", b, g, t[b, "cuda-shared-atomics"], t[b, "cuda-shared-per-lane"], bar
      }
    }' "$out/contention_sweep.csv"
} | tee "$out/contention_curve.txt"

exit $((failed > 100 ? 100 : failed))
