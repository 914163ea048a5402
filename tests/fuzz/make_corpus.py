#!/usr/bin/env python3
"""Writes the seed corpus of the fuzzers of tests/fuzz (corpus/<fuzzer>/): small valid inputs of each reader.
Run from the repository root: python3 tests/fuzz/make_corpus.py. corpus/run_hypot16.json is the output of
`launchlab-cli run hypot --n 16 --reps 1 --warmup 0 --impl cpu-serial --json FILE` (the result seed's base)."""
import json
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests/fuzz/corpus"


def message(doc, blob=b""):
    """A wire message (wire.h): [8-byte JSON length][JSON][array bytes]."""
    text = json.dumps(doc, separators=(",", ":")).encode()
    return struct.pack("<Q", len(text)) + text + blob


def frame(kind, payload=b""):
    """A worker frame (worker.h): [type][8-byte length][payload]."""
    return kind.encode() + struct.pack("<Q", len(payload)) + payload


REQUEST = {"workload": "hypot", "n": 1000, "dtype": "f32", "block": [256, 1, 1], "grid": [4, 1, 1],
           "impls": ["cpu-serial"], "warmup": 1, "reps": 5, "seed": 42, "params": {},
           "inputs": {}, "keep_inputs": False, "keep_outputs": True}
BARE_REQUEST = {"workload": "saxpy", "impls": [], "warmup": 0, "reps": 1, "seed": 7, "params": {"a": "2.5"},
                "inputs": {"x": "x.npy"}, "keep_inputs": True, "keep_outputs": False}
# Presets as the window's Presets menu saves them (ui/window/presets.h): a launch of one's own, and one with
# counters and every field.
PRESETS = {
    "vector_add_30x128": {"launchlab_preset": 1, "name": "vector_add 30 x 128",
                          "form": {"workload": "vector_add", "size": "100000", "dtype": "f32",
                                   "params": {"input": "arange"}, "auto_block": False, "block": "128",
                                   "auto_grid": False, "grid": "30", "impls": ["cpu-serial", "cuda-grid-stride"],
                                   "reps": 5, "warmup": 1, "seed": "42"}},
    "transpose_counters": {"launchlab_preset": 1, "name": "tile transpose", "course_id": "es-tile-transpose",
                           "form": {"workload": "transpose", "size": "2^12", "dtype": "f32", "params": {},
                                    "auto_block": False, "block": "32x32", "auto_grid": True, "grid": "64x64",
                                    "impls": ["cpu-serial", "cuda-tile-padded"], "reps": 3, "warmup": 0,
                                    "seed": "18446744073709551615", "counters": ["bank_conflicts"]}},
}
DEVICE = {"available": False, "reason": "no GPU"}
PROGRESS = {"impl": "cpu-serial", "i": 0, "n": 2, "rep": 1, "reps": 5}


def result():
    run = json.loads((CORPUS / "run_hypot16.json").read_text())
    data = struct.pack("<4f", 1.0, 2.0, 3.0, 4.0)
    run["inputs"] = [{"name": "x", "dtype": "f32", "shape": [4], "offset": 0, "bytes": 16}]
    for impl in run["implementations"]:
        impl["outputs"] = [{"name": "out", "dtype": "f32", "shape": [2, 2], "offset": 0, "bytes": 16}]
    return message(run, data)


def write(fuzzer, name, data):
    folder = CORPUS / fuzzer
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def main():
    for f in sorted((ROOT / "tests/data").glob("*.npy")):
        if f.stat().st_size <= 4096 + 64:
            write("fuzz_npy", f.name, f.read_bytes())
    req, bare = message(REQUEST), message(BARE_REQUEST)
    write("fuzz_worker", "device", frame("I"))
    write("fuzz_worker", "request", frame("R", req))
    write("fuzz_worker", "device_request_cancel", frame("I") + frame("R", bare) + frame("C"))
    write("fuzz_worker", "unknown_frame", frame("X", b"??"))
    write("fuzz_wire", "request", b"\x00" + req)
    write("fuzz_wire", "request_bare", b"\x00" + bare)
    write("fuzz_wire", "result", b"\x01" + result())
    write("fuzz_wire", "device", b"\x02" + message(DEVICE))
    write("fuzz_wire", "progress", b"\x03" + message(PROGRESS))
    for i, text in enumerate(["256", "16x16", "16x16x4", "auto", "AUTO", "1M", "16Mi", "2^24", "1e6", "4K", "1G",
                              "1000003", "1.5", "all", "cpu-serial, cpu-omp", "f32", "-3", " 42 "]):
        write("fuzz_parse", f"seed{i:02d}", text)
    for name, preset in PRESETS.items():
        write("fuzz_preset", name + ".json", json.dumps(preset, indent=2).encode())


if __name__ == "__main__":
    main()
