#!/usr/bin/env bash
# Benchmark points of the course's workloads, part 2 (launch_coverage, atomic_counter, histogram, reduce_sum,
# monte_carlo_pi, streams_overlap), run on the GPU machine.
#
#   scripts/bench/workloads_part_b.sh LAUNCHLAB_CLI OUTPUT_DIR
#
# Writes OUTPUT_DIR/<point>.json (the full run result) and OUTPUT_DIR/<point>.txt (the CLI's table and messages)
# for every point, then prints a summary and the three targets: histogram shared-privatized >= 0.9x CUB (2^26
# normal f32, 256 bins), best hand-written reduction >= 0.95x CUB (2^26 and 2^28 f32), Monte Carlo pi >= 600
# Gsamples/s at its best launch. A failing point is reported and the script goes on; the exit status is the
# number of points that failed (capped at 100).
set -u

if [[ $# -lt 2 ]]; then
  echo "usage: $0 LAUNCHLAB_CLI OUTPUT_DIR" >&2
  exit 2
fi
cli=$1
out=$2
if [[ ! -x "$cli" ]]; then
  echo "$0: $cli is not an executable" >&2
  exit 2
fi
mkdir -p "$out" || exit 2

failed=0

# point NAME ARGS…: one `launchlab-cli run` with its JSON result in $out/NAME.json.
# point NAME ARGS…: one run; EXPECT_RC=1 before it marks a lesson point whose verification must fail.
point() {
  local name=$1
  shift
  printf '%-30s launchlab-cli run %s\n' "$name" "$*"
  "$cli" run "$@" --json "$out/$name.json" >"$out/$name.txt" 2>&1
  local rc=$?
  if [[ $rc -eq ${EXPECT_RC:-0} ]]; then
    [[ $rc -ne 0 ]] && echo "  -> exit $rc, as expected: the lesson (see $out/$name.txt)"
  else
    failed=$((failed + 1))
    echo "  -> exit $rc (1: a run or a verification failed, 2: bad request); see $out/$name.txt"
    tail -n 3 "$out/$name.txt" | sed 's/^/     /'
  fi
}

"$cli" info >"$out/device.txt" 2>&1
head -n 3 "$out/device.txt"

# Histogram (TP 3.2 exercise, ATLAS project 1): every variant on 2^26 normal float32 values, 256 bins and the
# seed's 10 bins (fewer bins = more contention for the global atomics).
point hist_2p26_256bins      histogram --n 2^26 --param bins=256 --reps 30 --warmup 3
point hist_2p26_10bins       histogram --n 2^26 --param bins=10 --reps 10 --warmup 2
point hist_2p26_256_uniform  histogram --n 2^26 --param bins=256 --param distribution=uniform \
  --impl cuda-shared-privatized,cuda-cub --reps 30 --warmup 3
point hist_seed              histogram --grid 128 --block 64 --reps 10

# Sum reduction (Session 3 cuda.reduce): the fast variants with many repetitions at 2^26 and 2^28, the slow
# ones (atomics, trees) with a few; random data (uniform(-1, 1)) so that float32 atomics stay within tolerance.
fast=cuda-warp-shuffle,cuda-cub,cuda-tree-sequential
slow=cuda-atomics,cuda-tree-interleaved,cpu-parallel
point reduce_2p26_fast       reduce_sum --n 2^26 --dtype f32 --param input=random --impl $fast --reps 100 --warmup 10
point reduce_2p28_fast       reduce_sum --n 2^28 --dtype f32 --param input=random --impl $fast --reps 50 --warmup 5
point reduce_2p26_slow       reduce_sum --n 2^26 --dtype f32 --param input=random --impl $slow --reps 5 --warmup 1
point reduce_2p28_slow       reduce_sum --n 2^28 --dtype f32 --param input=random --impl $slow --reps 3 --warmup 1
point reduce_2p26_f64        reduce_sum --n 2^26 --dtype f64 --param input=random --impl $fast --reps 50 --warmup 5
point reduce_seed            reduce_sum --reps 10

# Monte Carlo pi (Session 3 compute_pi): the seed's launch (24 x 64 threads, 10000 samples each), then 2^31
# samples in chunks of 1000 on grids of 132 * k blocks of 256 threads, and the automatic launch.
point pi_seed_24x64          monte_carlo_pi --grid 24 --block 64 --impl cuda-philox --reps 20 --warmup 3
for k in 4 8 16 32 64; do
  point "pi_2p31_grid$((132 * k))x256" monte_carlo_pi --n 2^31 --param iters=1000 --grid $((132 * k)) --block 256 \
    --impl cuda-philox --reps 20 --warmup 3
done
point pi_2p31_auto           monte_carlo_pi --n 2^31 --param iters=1000 --impl cuda-philox,cuda-shared-seed \
  --reps 20 --warmup 3
point pi_2p31_auto_4096      monte_carlo_pi --n 2^31 --param iters=4096 --impl cuda-philox --reps 20 --warmup 3

# Atomic counter (TP 3.2): the seed's 64 x 64 launch, then 2^26 increments.
point counter_seed           atomic_counter --grid 64 --block 64 --reps 10
point counter_2p26           atomic_counter --n 2^26 --reps 10 --warmup 2

# Launch coverage (TP 3.2): a grid too small and one too large for the seed's n = 4096.
# A grid of 24 x 128 threads for 4096 elements leaves 1024 unwritten: verification must fail (the lesson).
EXPECT_RC=1 point coverage_grid24 launch_coverage --grid 24 --reps 3
point coverage_grid40        launch_coverage --grid 40 --reps 3

# Streams and events (Session 3): the seed's sequence three ways at the seed's launch, then 16 chunks over 4 and
# 8 streams beside pageable synchronous copies, 16 Mi int32 (targets: wall <= 1.15x the busiest engine with 4+
# streams; cuda-streams >= 2x cuda-pageable-sync).
point streams_seed           streams_overlap --n 16Mi --block 512 --grid 32768 \
  --impl cuda-seed,cuda-async,cuda-pageable-sync --reps 20 --warmup 3
for k in 4 8; do
  point "streams_k${k}"       streams_overlap --n 16Mi --block 512 --param streams=$k --param chunks=16 \
    --impl cuda-pageable-sync,cuda-streams --reps 20 --warmup 3
done

echo
if command -v python3 >/dev/null 2>&1; then
  python3 - "$out" <<'EOF'
import glob, json, os, sys

out = sys.argv[1]
runs = {}
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    try:
        with open(path) as f:
            runs[os.path.basename(path)[:-5]] = json.load(f)
    except Exception as e:  # a point that failed before writing JSON
        print(f"{path}: unreadable ({e})")

def kernel_ms(impl):
    p = impl.get("phases", {})
    k = p.get("kernel") or p.get("cpu")
    return k["median_ms"] if k else float("nan")

print(f"{'point':28s} {'implementation':24s} {'launch':>16s} {'kernel ms':>10s} {'GB/s':>8s}  {'verification':14s} metrics")
for name, r in runs.items():
    for i in r.get("implementations", []):
        if i.get("status") != "ok":
            print(f"{name:28s} {i['id']:24s} {i.get('status')}: {i.get('reason', '')[:70]}")
            continue
        launch = i.get("launch", {})
        l = f"{launch.get('grid', '-')}x{launch.get('block', '-')}" if launch else "-"
        m = " ".join(f"{k}={v:.4g}" for k, v in i.get("metrics", {}).items())
        print(f"{name:28s} {i['id']:24s} {l:>16s} {kernel_ms(i):10.4f} {i.get('bandwidth_gbs', 0):8.1f}  "
              f"{i['verification']['outcome']:14s} {m}")

def impl(point, iid):
    for i in runs.get(point, {}).get("implementations", []):
        if i["id"] == iid and i.get("status") == "ok":
            return i
    return None

print("\nTargets")
def ratio(point, mine, ref):
    a, b = impl(point, mine), impl(point, ref)
    if not a or not b:
        return None
    return kernel_ms(b) / kernel_ms(a)

r = ratio("hist_2p26_256bins", "cuda-shared-privatized", "cuda-cub")
print(f"  histogram 2^26 normal f32, 256 bins: shared-privatized / CUB speed = "
      f"{'n/a' if r is None else f'{r:.3f}x'} (target >= 0.9x)")
for point, size in (("reduce_2p26_fast", "2^26"), ("reduce_2p28_fast", "2^28")):
    best = max(((ratio(point, v, "cuda-cub") or 0, v) for v in ("cuda-warp-shuffle", "cuda-tree-sequential")))
    shown = f"{best[0]:.3f}x ({best[1]})" if best[0] > 0 else "n/a"
    print(f"  reduce_sum {size} f32: best hand-written / CUB speed = {shown} (target >= 0.95x)")
best = (0.0, "-")
for name, r in runs.items():
    if name.startswith("pi_"):
        i = impl(name, "cuda-philox")
        if i and "gsamples_per_s" in i.get("metrics", {}):
            best = max(best, (i["metrics"]["gsamples_per_s"], name))
seed = impl("pi_seed_24x64", "cuda-philox")
seed_rate = seed["metrics"]["gsamples_per_s"] if seed else float("nan")
for k in (4, 8):
    st, pg = impl(f"streams_k{k}", "cuda-streams"), impl(f"streams_k{k}", "cuda-pageable-sync")
    if not st:
        print(f"  streams_overlap k={k}: n/a")
        continue
    m = st["metrics"]
    wall_x = m["wall_ms"] / m["busiest_engine_ms"] if m.get("busiest_engine_ms") else float("nan")
    speed = pg["phases"]["total"]["median_ms"] / st["phases"]["total"]["median_ms"] if pg else float("nan")
    print(f"  streams_overlap 16 Mi, {k} streams x 16 chunks: wall / busiest engine = {wall_x:.3f}x (target <= 1.15x, "
          f"overlap {m.get('overlap_fraction', float('nan')):.3f}); cuda-streams / cuda-pageable-sync speed = "
          f"{speed:.2f}x (target >= 2x)")
seed = impl("streams_seed", "cuda-seed")
asyn = impl("streams_seed", "cuda-async")
if seed and asyn:
    print(f"  streams_overlap seed: poll_count {seed['metrics']['poll_count']:.0f} (synchronous copy back) against "
          f"{asyn['metrics']['poll_count']:.0f} (all asynchronous)")
print(f"  monte_carlo_pi: best {best[0]:.1f} Gsamples/s at {best[1]} (target >= 600); seed's 24 x 64 launch: "
      f"{seed_rate:.1f} Gsamples/s")
EOF
fi
echo "points failed: $failed"
exit $((failed > 100 ? 100 : failed))
