#!/usr/bin/env bash
# Every tracked C++/CUDA source is formatted by the repository's .clang-format (clang-format from Debian, installed
# here when missing). Fails naming each file that is not; `bash scripts/check_format.sh --fix` formats them in place;
# `--staged` checks only the files staged for commit (scripts/hooks/pre-commit).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CF=${LAUNCHLAB_CLANG_FORMAT:-clang-format}
if ! command -v "$CF" > /dev/null; then
  [ "$(id -u)" -eq 0 ] || { echo "check_format: needs clang-format: apt-get install clang-format" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q clang-format
fi
# One clang-format version formats the tree: each major version lays some constructs out differently, so another
# version would call formatted files unformatted (and --fix would reformat the tree). Debian 12's is 14.
WANT=14
have=$("$CF" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$have" != "$WANT" ]; then
  echo "check_format: needs clang-format $WANT (found '$("$CF" --version)'); set LAUNCHLAB_CLANG_FORMAT to a $WANT binary" >&2
  exit 1
fi
# The exercises' starting files and solutions are course text a student reads (each states its kernel's
# declaration on one line, as the exercise's contract prints it): kept as written, as is a student's file among the
# tests' data (its line numbers are what the tests check).
list=(git ls-files)
[ "${1:-}" = --staged ] && list=(git diff --cached --name-only --diff-filter=ACM --)
mapfile -t files < <("${list[@]}" '*.cpp' '*.h' '*.cu' '*.cuh' | grep -v -e '^tests/fuzz/corpus/' -e '^kernels/[^/]*/exercise[^/]*\.cu$' \
  -e '^tests/data/counters/[^/]*\.cu$')
[ ${#files[@]} -gt 0 ] || { echo "check_format: no C++/CUDA files to check"; exit 0; }
if [ "${1:-}" = --fix ]; then
  "$CF" -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} files"
  exit 0
fi
# One clang-format process for all files: it names each unformatted file in its warnings.
mapfile -t bad < <("$CF" --dry-run "${files[@]}" 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: .*-Wclang-format-violations.*/\1/p' | sort -u)
if [ ${#bad[@]} -gt 0 ]; then
  echo "check_format: ${#bad[@]} of ${#files[@]} files are not clang-formatted (bash scripts/check_format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files formatted"
