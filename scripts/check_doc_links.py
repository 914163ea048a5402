#!/usr/bin/env python3
"""Fails (exit 1) on a relative link in README.md or docs/**/*.md whose target file or folder does not exist, and on
a repository path in a code span (`core/src/engine/engine.cpp`, `ui/window/`) that names nothing in the tree.

Usage: scripts/check_doc_links.py [REPO_ROOT]   (default: the folder above this script)
Links: markdown links and images, [text](target) and ![alt](target); external links (http:, https:, mailto:) and
pure anchors (#section) are not checked; a target's own #anchor is dropped before the file is looked up. Code spans
and fenced code blocks are skipped, since commands there are not links.
Paths: every word of a code span (outside fenced blocks) that starts with one of PATH_ROOTS, taken from the
repository's root. A trailing :LINE, #anchor or punctuation is dropped; `{a,b}` expands to both; `*`, `?` and a
<placeholder> match like a glob (at least one file must); a path cut short with … or ... is not checked.
"""
import itertools
import pathlib
import re
import sys

PATH_ROOTS = ("app/", "cmake/", "core/", "docs/", "kernels/", "profiler/", "resources/", "scripts/", "tests/", "ui/")
PATH_WORD = re.compile(r"(?<![\w./-])((?:" + "|".join(re.escape(r) for r in PATH_ROOTS) + r")[^\s`'\"()\[\]]*)")
BRACES = re.compile(r"\{([^{}]*)\}")

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")


def markdown_files(root):
    readme = root / "README.md"
    if readme.exists():
        yield readme
    yield from sorted((root / "docs").rglob("*.md"))


def prose_lines(path):
    """(number, line) of every line outside fenced code blocks."""
    in_fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            yield number, line


def broken_links(path):
    for number, line in prose_lines(path):
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            file_part = target.split("#", 1)[0]
            if not (path.parent / file_part).exists():
                yield number, target


def expand_braces(word):
    m = BRACES.search(word)
    if not m:
        return [word]
    head, tail = word[:m.start()], word[m.end():]
    return list(itertools.chain.from_iterable(expand_braces(head + alt + tail) for alt in m.group(1).split(",")))


def path_exists(root, word):
    word = re.sub(r"(:\d+(-\d+)?)+$", "", word.split("#", 1)[0]).rstrip(".,;:")
    if "…" in word or "..." in word or not word:
        return True
    for candidate in expand_braces(word):
        pattern = re.sub(r"<[^<>/]*>", "*", candidate).rstrip("/")
        if any(ch in pattern for ch in "*?["):
            if not any(root.glob(pattern)):
                return False
        elif not (root / pattern).exists():
            return False
    return True


def stale_paths(root, path):
    for number, line in prose_lines(path):
        for span in CODE_SPAN.findall(line):
            for word in PATH_WORD.findall(span.strip("`")):
                if not path_exists(root, word):
                    yield number, word


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    failures = 0
    for path in markdown_files(root):
        for number, target in broken_links(path):
            print(f"{path.relative_to(root)}:{number}: broken link: {target}")
            failures += 1
        for number, word in stale_paths(root, path):
            print(f"{path.relative_to(root)}:{number}: no such path: {word}")
            failures += 1
    if failures:
        print(f"{failures} broken link(s) or path(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
