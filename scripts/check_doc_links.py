#!/usr/bin/env python3
"""Fails (exit 1) on a relative link in README.md or docs/**/*.md whose target file or folder does not exist.

Usage: scripts/check_doc_links.py [REPO_ROOT]   (default: the folder above this script)
Checks markdown links and images, [text](target) and ![alt](target); external links (http:, https:, mailto:) and
pure anchors (#section) are not checked; a target's own #anchor is dropped before the file is looked up. Code spans
and fenced code blocks are skipped, since commands there are not links.
"""
import pathlib
import re
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")


def markdown_files(root):
    readme = root / "README.md"
    if readme.exists():
        yield readme
    yield from sorted((root / "docs").rglob("*.md"))


def broken_links(path):
    in_fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            file_part = target.split("#", 1)[0]
            if not (path.parent / file_part).exists():
                yield number, target


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    failures = 0
    for path in markdown_files(root):
        for number, target in broken_links(path):
            print(f"{path.relative_to(root)}:{number}: broken link: {target}")
            failures += 1
    if failures:
        print(f"{failures} broken relative link(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
