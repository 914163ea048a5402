#!/usr/bin/env python3
"""Core's public headers live in subfolders named after core/src's rooms (launchlab/engine/engine.h beside
core/src/engine/engine.cpp), so an #include line says which room it reaches into.

Re-runnable: moves each header still at its old place (core/include/launchlab/x.h or io/x.h) into its room, then
rewrites every reference to an old path in the tracked tree (#include lines, CMake and doc text, code spans), and
formats the C++ files it changed (clang-format regroups includes, so a renamed include may move within its block).
A header in the flat folder that ROOMS does not name stops the script: give it a room here first.

    python3 scripts/core_header_rooms.py            # move and rewrite
    python3 scripts/core_header_rooms.py --check    # exit 1 if anything is left to move or rewrite
"""
import os
import re
import shutil
import subprocess
import sys

ROOMS = {
    "engine": [
        "array.h", "cancel.h", "counters.h", "cpu_threads.h", "device.h", "dtype.h", "engine.h", "errors.h",
        "expected_outcome.h", "gpu_sharing.h", "launch_config.h", "overlapped_pipeline.h", "params.h", "registry.h",
        "request.h", "result.h", "rng.h", "summation.h", "verify.h", "workload.h"
    ],
    "course": [
        "chapters.h", "course.h", "course_headline.h", "exercise.h", "lesson.h", "nvrtc.h", "prediction.h",
        "sanitizer.h"
    ],
    "numba": ["numba.h"],
    "explorer": [
        "block_trace.h", "crossover.h", "kernel_resources.h", "occupancy.h", "occupancy_report.h", "roofline.h",
        "run_compare.h", "sweep.h", "sweep_map.h", "timeline.h"
    ],
    "files": [
        "command_line.h", "parse.h", "io/atomic_file.h", "io/bounded_file.h", "io/csv.h", "io/files.h", "io/json.h",
        "io/json_value.h", "io/json_within.h", "io/npy.h", "io/run_file.h"
    ],
    "worker": ["remote.h", "slurm.h", "subprocess.h", "worker.h", "io/frames.h", "io/result_check.h", "io/wire.h"],
    "ptx": ["ptx_counters.h", "ptx_instrument.h"],
    "plot": ["colormap_lut.h", "plot_geometry.h"],
}
INCLUDE = "core/include/launchlab"
# The files clang-format may touch: scripts/check_format.sh's selection (exercise files are course text as written).
FORMAT_SKIP = re.compile(r"^(tests/fuzz/corpus/|kernels/[^/]*/exercise[^/]*\.cu$)")
CXX = (".cpp", ".h", ".cu", ".cuh")


def moves():
    """old path below launchlab/ -> new path below launchlab/."""
    return {old: f"{room}/{os.path.basename(old)}" for room, olds in ROOMS.items() for old in olds}


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def unmapped(table):
    flat = []
    for sub in ("", "io/"):
        d = os.path.join(INCLUDE, sub)
        if os.path.isdir(d):
            flat += [sub + f for f in sorted(os.listdir(d)) if f.endswith(".h")]
    return [f for f in flat if f not in table]


def move_files(table, check):
    pending = [(o, n) for o, n in table.items() if os.path.exists(os.path.join(INCLUDE, o))]
    for old, new in pending if not check else []:
        src, dst = os.path.join(INCLUDE, old), os.path.join(INCLUDE, new)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        tracked = subprocess.run(["git", "ls-files", "--error-unmatch", src], capture_output=True).returncode == 0
        if tracked:
            git("mv", src, dst)
        else:
            shutil.move(src, dst)
    io = os.path.join(INCLUDE, "io")
    if not check and os.path.isdir(io) and not os.listdir(io):
        os.rmdir(io)
    return pending


def rewrite(table, check):
    # `launchlab/<old>` not preceded by a name character (so "include/launchlab/x.h", "<launchlab/x.h>" and
    # "`launchlab/x.h`" match) and not followed by one (so x.hpp or x.h_old do not).
    names = sorted(table, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w.-])launchlab/(" + "|".join(re.escape(n) for n in names) + r")(?![\w.])")
    changed = []
    files = git("ls-files", "--cached", "--others", "--exclude-standard", "-z").split("\0")
    for path in files:
        if not path or not os.path.isfile(path) or path.startswith("scripts/core_header_rooms"):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        new = pattern.sub(lambda m: "launchlab/" + table[m.group(1)], text)
        if new != text:
            changed.append(path)
            if not check:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    return changed


def format_cxx(paths):
    cxx = [p for p in paths if p.endswith(CXX) and not FORMAT_SKIP.match(p)]
    cf = os.environ.get("LAUNCHLAB_CLANG_FORMAT", "clang-format")
    if cxx and shutil.which(cf):
        subprocess.run([cf, "-i", *cxx], check=True)
    elif cxx:
        print(f"core_header_rooms: {cf} not found; run scripts/check_format.sh --fix", file=sys.stderr)


def main():
    check = "--check" in sys.argv[1:]
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    table = moves()
    lost = unmapped(table)
    if lost:
        print("core_header_rooms: no room for " + ", ".join(lost) + " (add it to ROOMS in this script)",
              file=sys.stderr)
        return 2
    moved = move_files(table, check)
    changed = rewrite(table, check)
    if check:
        for old, new in moved:
            print(f"to move: launchlab/{old} -> launchlab/{new}")
        for path in changed:
            print(f"old include path in {path}")
        return 1 if moved or changed else 0
    format_cxx(changed)
    print(f"core_header_rooms: moved {len(moved)} headers, rewrote {len(changed)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
