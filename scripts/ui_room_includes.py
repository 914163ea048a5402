#!/usr/bin/env python3
"""The window's rooms (ui/<room>/) and the includes between them, against the rules in ui/rooms.json.

Usage: scripts/ui_room_includes.py [--check | --graph] [REPO_ROOT]   (default root: the folder above this script)

  (no flag)  Rewrites: moves the files listed in MOVES to their room (git mv, where not yet done), then spells every
             include of a ui header with its room, "runs/controller.h", in ui/, tests/ui/, tests/fuzz/ and app/,
             whatever it said before ("controller.h", "ui/runs/controller.h", "../runs/controller.h"), and
             clang-formats the files it changed (their includes sort anew). Idempotent: run it again after merging a
             branch that added files or includes.
  --check    Fails (exit 1), naming file and line, where a file of ui/<room>/ includes a ui header not spelled
             "<room>/<name>.h", or a room that its room may not use (the rooms that ui/rooms.json lets it link, and
             theirs); where rooms.json has a cycle, or a folder of ui/ is not a room. The build enforces the same
             rule (each room's headers are on the include path only of the targets that link it): this names them
             all at once, and catches what a path trick could pass (an include of "../plots/x.h").
  --graph    Prints room -> room with the number of includes, each room's rules beside what it uses.
"""
import json
import os
import re
import shutil
import subprocess
import sys

# Files that live in another room than they once did, so that a branch written before the move merges by a re-run.
# Each went down to the lowest room that uses it, so that no room includes one above it.
MOVES = {
    "ui/runs/backend.h": "ui/models/backend.h",  # the form's checks (models) ask the backend
    "ui/runs/engine_backend.cpp": "ui/models/engine_backend.cpp",
    "ui/plots/plot_data.h": "ui/models/plot_data.h",  # the controller (runs) prepares plot data off the GUI thread
    "ui/plots/plot_data.cpp": "ui/models/plot_data.cpp",
    "ui/explorer/occupancy_curves.h": "ui/models/occupancy_curves.h",  # the charts (plots) draw them
    "ui/explorer/occupancy_curves.cpp": "ui/models/occupancy_curves.cpp",
    "ui/window/settings.h": "ui/models/settings.h",  # the remote dialog (dialogs) reads and writes them
    "ui/window/settings.cpp": "ui/models/settings.cpp",
    "ui/runs/device_imports.h": "ui/gl/device_imports.h",  # only the GL views draw from the imports
    "ui/runs/device_imports.cpp": "ui/gl/device_imports.cpp",
}
REWRITTEN = ["ui", "tests/ui", "tests/fuzz", "app"]
INCLUDE = re.compile(r'^(\s*#\s*include\s*)"([^"]+)"', re.M)
SOURCE_EXT = (".h", ".cpp", ".cu")


def load_rooms(root):
    with open(os.path.join(root, "ui", "rooms.json"), encoding="utf-8") as f:
        rooms = json.load(f)
    return {room: list(rule.get("links", [])) for room, rule in rooms.items()}


def reachable(rooms, room):
    """The rooms that `room` may include: itself and, through PUBLIC links, every room below it."""
    seen, todo = {room}, [room]
    while todo:
        for dep in rooms.get(todo.pop(), []):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def find_cycle(rooms):
    state = {}

    def visit(room, path):
        state[room] = "open"
        for dep in rooms.get(room, []):
            if state.get(dep) == "open":
                return path + [room, dep]
            if dep not in state:
                found = visit(dep, path + [room])
                if found:
                    return found
        state[room] = "done"
        return None

    for room in rooms:
        if room not in state:
            found = visit(room, [])
            if found:
                return found
    return None


def ui_headers(root):
    """Header name -> its room. Names are unique across ui/ (checked)."""
    where, clashes = {}, []
    for room in sorted(os.listdir(os.path.join(root, "ui"))):
        folder = os.path.join(root, "ui", room)
        if not os.path.isdir(folder):
            continue
        for dirpath, _, files in os.walk(folder):
            for name in files:
                if name.endswith(".h"):
                    if name in where:
                        clashes.append(f"ui/{where[name]}/{name} and ui/{room}/{name}")
                    where[name] = room
    return where, clashes


def source_files(root, tops):
    for top in tops:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(SOURCE_EXT):
                    yield os.path.join(dirpath, name)


def spelled(include, headers):
    """The room-spelled form of a quoted include of a ui header, or None for any other include."""
    name = os.path.basename(include)
    if name not in headers:
        return None
    parts = include.split("/")
    ok = len(parts) == 1 or parts[0] in ("ui", "..") or parts[0] in set(headers.values())
    return f"{headers[name]}/{name}" if ok else None


def move_files(root):
    for old, new in MOVES.items():
        if os.path.exists(os.path.join(root, old)) and not os.path.exists(os.path.join(root, new)):
            subprocess.run(["git", "mv", old, new], cwd=root, check=True)
            print(f"moved {old} -> {new}")


def rewrite(root):
    move_files(root)
    headers, clashes = ui_headers(root)
    if clashes:
        sys.exit("two ui headers share a name (includes could not say which): " + "; ".join(clashes))
    changed = []
    for path in source_files(root, REWRITTEN):
        with open(path, encoding="utf-8") as f:
            text = f.read()

        def fix(m):
            new = spelled(m.group(2), headers)
            return f'{m.group(1)}"{new}"' if new else m.group(0)

        out = INCLUDE.sub(fix, text)
        if out != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(out)
            changed.append(path)
    # The new spellings sort differently among a file's includes: the repository's format puts them in order.
    formatter = os.environ.get("LAUNCHLAB_CLANG_FORMAT", "clang-format")
    if changed and shutil.which(formatter):
        subprocess.run([formatter, "-i"] + changed, check=True)
    print(f"{len(changed)} files rewritten" + ("" if shutil.which(formatter) else f" (format them: no {formatter})"))


def room_includes(root, headers):
    """(file, line number, room of the file, include as written, room included) for every ui include in ui/."""
    for path in source_files(root, ["ui"]):
        room = os.path.relpath(path, os.path.join(root, "ui")).split(os.sep)[0]
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m and os.path.basename(m.group(2)) in headers:
                    yield (os.path.relpath(path, root), number, room, m.group(2),
                           headers[os.path.basename(m.group(2))])


def check(root):
    rooms = load_rooms(root)
    headers, problems = ui_headers(root)
    problems = [f"two ui headers share a name: {c}" for c in problems]
    cycle = find_cycle(rooms)
    if cycle:
        problems.append("ui/rooms.json has a cycle: " + " -> ".join(cycle))
    for room in sorted(set(headers.values())):
        if room not in rooms:
            problems.append(f"ui/{room}/ is not a room of ui/rooms.json")
    for path, number, room, include, target in room_includes(root, headers):
        if include != f"{target}/{os.path.basename(include)}":
            problems.append(f'{path}:{number}: spell it "{target}/{os.path.basename(include)}", not "{include}"')
        if room in rooms and target not in reachable(rooms, room):
            allowed = ", ".join(sorted(reachable(rooms, room) - {room})) or "no other room"
            problems.append(f"{path}:{number}: {room}/ may not include {target}/ ({include}); it may use {allowed}")
    for p in problems:
        print(p)
    print(f"ui rooms: {len(problems)} problems")
    return 1 if problems else 0


def graph(root):
    rooms = load_rooms(root)
    headers, _ = ui_headers(root)
    edges = {}
    for _, _, room, _, target in room_includes(root, headers):
        if room != target:
            edges[(room, target)] = edges.get((room, target), 0) + 1
    for room in rooms:
        uses = sorted(t for (r, t) in edges if r == room)
        print(f"{room:9} links {', '.join(rooms[room]) or '-':30} uses " +
              (", ".join(f"{t} ({edges[(room, t)]})" for t in uses) or "-"))
    return 0


def main(argv):
    flags = [a for a in argv if a.startswith("--")]
    args = [a for a in argv if not a.startswith("--")]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if flags == ["--check"]:
        return check(root)
    if flags == ["--graph"]:
        return graph(root)
    if flags:
        print(__doc__, file=sys.stderr)
        return 2
    rewrite(root)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
