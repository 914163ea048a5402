#!/usr/bin/env python3
"""Writes a made-up launchlab.sweep file of POINTS points, in the shape `launchlab-cli sweep --json` writes
(docs/JSON_SCHEMA.md), for opening it in the window (scripts/bench/open_sweep.sh).

    scripts/bench/make_sweep.py SHAPE POINTS OUT.json

SHAPE:
  curve      one "n" axis of POINTS sizes, one CUDA variant: the window draws the block-size curve
  grid       a "block" axis of 32 sizes x a "grid" axis of POINTS/32 grids, one CUDA variant: the heatmap
             (every 16th cell skipped, as a sweep over launches the device refuses would be)
  crossover  an "n" axis of POINTS/3 sizes x cpu-serial, cpu-parallel and a CUDA variant: the crossover plot

The device, date and ceiling are the test fixture's ("Fixture GPU (test data)", tests/data): the figures are
invented and never presented as a GPU's.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "..", "tests", "data", "vector_add_n_sweep_fixture.json")
GPU_IMPL = "cuda-grid-stride"


def point(at, impl, gpu, threads, ms, grid, skipped=False):
    p = {"at": at, "impl": impl, "gpu": gpu, "threads": threads}
    if skipped:
        p.update(status="skipped", reason="block of more than the device's 1024 threads")
        return p
    p.update(status="ok", compute_ms={"median": ms, "min": ms * 0.97, "max": ms * 1.08},
             total_median_ms=ms * 3.1, bandwidth_gbs=12.0 / ms)
    if gpu:
        p["launched"] = {"grid": str(grid), "block": str(threads)}
    p["verification"] = "pass"
    p["cell_wall_ms"] = ms * 40
    return p


def curve(count):
    ns = [str(4096 + 64 * i) for i in range(count)]
    pts = [point({"n": n}, GPU_IMPL, True, 256, 0.002 + int(n) * 1e-7, (int(n) + 255) // 256) for n in ns]
    return [{"field": "n", "values": ns}], pts


def grid(count):
    blocks = [str(32 * (i + 1)) for i in range(32)]
    grids = [str(132 * (i + 1)) for i in range(max(1, count // 32))]
    pts = []
    for k, g in enumerate(grids):
        for j, b in enumerate(blocks):
            ms = 0.01 * (1 + int(b) / 512) * (1 + 132 / int(g))
            pts.append(point({"block": b, "grid": g}, GPU_IMPL, True, int(b), ms, g, (k * 32 + j) % 16 == 15))
    return [{"field": "block", "values": blocks}, {"field": "grid", "values": grids}], pts


def crossover(count):
    ns = [str(1024 * (i + 1)) for i in range(max(1, count // 3))]
    pts = []
    for n in ns:
        x = int(n)
        pts.append(point({"n": n}, "cpu-serial", False, 1, x * 1e-6, 0))
        pts.append(point({"n": n}, "cpu-parallel", False, 1, 0.01 + x * 2e-7, 0))
        pts.append(point({"n": n}, GPU_IMPL, True, 256, 0.005 + x * 1e-9, (x + 255) // 256))
    return [{"field": "n", "values": ns}], pts


def main(argv):
    shapes = {"curve": curve, "grid": grid, "crossover": crossover}
    if len(argv) != 4 or argv[1] not in shapes or not argv[2].isdigit() or int(argv[2]) < 1:
        sys.stderr.write("usage: make_sweep.py curve|grid|crossover POINTS OUT.json\n")
        return 2
    with open(FIXTURE) as f:
        doc = json.load(f)
    doc["axes"], doc["points"] = shapes[argv[1]](int(argv[2]))
    doc.pop("crossover", None)  # the fixture's; the window computes its own from the points
    with open(argv[3], "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
