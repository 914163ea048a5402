#!/usr/bin/env bash
# Runs ON the GPU machine: what a student sees on the command line, with the GPU.
#   1. every course experiment's predictions answered from a real run (course run ID: every measure must give a value);
#   2. counters on the exercise solutions, hardware (CUPTI, as root) against measured from the kernel's accesses;
#   3. the same as a student: a user made with useradd, for whom the driver refuses CUPTI (NVreg
#      RestrictProfilingToAdminUsers, the default), so `--counters` must fall back to the accesses and say so.
# Usage: scripts/gpu/student_checks.sh BIN_DIR OUT_DIR   (BIN_DIR: launchlab-cli; CUPTI's libraries in
# BIN_DIR/../cupti or $CUPTI_DIR, as scripts/gpu/counters_check.sh takes them)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib/check.sh"
check_begin student "$1" "$2"
K=$(cd "$HERE/../../kernels" && pwd)
CUPTI=${CUPTI_DIR:-$BIN/../cupti}
[ -d "$CUPTI" ] && export LD_LIBRARY_PATH="$(cd "$CUPTI" && pwd):$LD_LIBRARY_PATH"
note "RmProfilingAdminOnly: $(grep -h RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null || echo unknown)"

# 1. Every experiment's questions, answered on the GPU. A line "measured:" per question; none may say why it has no
#    value.
"$C" course --json > "$E/course.json" 2>&1
ids=$(python3 -c 'import json,sys; print(" ".join(e["id"] for e in json.load(open(sys.argv[1]))["experiments"]))' \
  "$E/course.json")
mkdir -p "$E/course"
t0=$SECONDS
for id in $ids; do
  timeout 120 "$C" course run "$id" > "$E/course/$id.txt" 2>&1
  echo "$id exit $?" >> "$E/course_exits.txt"
  grep -h "measured:" "$E/course/$id.txt" | sed "s/^/$id /" >> "$E/answers.txt"
done
note "course run of $(echo $ids | wc -w) experiments in $((SECONDS - t0)) s: $(grep -vc ' exit 0$' "$E/course_exits.txt") exited non-zero"
grep -v ' exit 0$' "$E/course_exits.txt" | head -20 >> "$summary"
note "answers: $(wc -l < "$E/answers.txt"); without a value: $(grep -cE 'needs|not in the run|reports no|has no|skipped|failed' "$E/answers.txt")"
grep -E 'needs|not in the run|reports no|has no|skipped|failed' "$E/answers.txt" | head -20 >> "$summary"

# 2. Hardware against accesses on every exercise solution (root).
metrics=sectors_per_request,store_sectors_per_request,bank_conflicts,warp_execution_efficiency
for f in "$K"/*/exercise*_solution.cu; do
  w=$(basename "$(dirname "$f")")
  s=$(basename "$f" .cu)
  s=${s%_solution}
  ex=$w${s#exercise}
  for src in hardware accesses; do
    step "profile_${ex}_$src" 180 profile "$w" --exercise "$ex" --kernel-file "$f" --impl my-kernel \
      --counters="$src" --metrics "$metrics" --by-line
  done
done

# 3. As a student: CUPTI refused, the accesses measured instead (the heading says which).
id student > /dev/null 2>&1 || useradd -m student
S=/tmp/student-ll
rm -rf "$S" && mkdir -p "$S" && cp -r "$BIN" "$S/bin" && cp -r "$BIN/../lib" "$S/lib" && cp -r "$K" "$S/kernels"
[ -d "$CUPTI" ] && cp -r "$CUPTI" "$S/cupti"
chmod -R a+rX "$S"
as_student() {  # NAME ARGS...: launchlab-cli as the student, output in NAME.txt
  local name=$1
  shift
  su student -s /bin/bash -c "cd /tmp && LD_LIBRARY_PATH=$S/cupti:$S/lib timeout 180 $S/bin/launchlab-cli $*" \
    > "$E/$name.txt" 2>&1
  note "$name (as student): exit $? ($*)"
}
as_student student_hardware profile transpose --kernel-file "$S/kernels/transpose/exercise_solution.cu" \
  --impl my-kernel --counters=hardware --metrics bank_conflicts
as_student student_auto profile transpose --kernel-file "$S/kernels/transpose/exercise_solution.cu" \
  --impl my-kernel --counters --metrics "$metrics" --by-line
as_student student_coalescing1 profile coalescing --param stride=1 --counters --metrics sectors_per_request
as_student student_coalescing32 profile coalescing --param stride=32 --counters --metrics sectors_per_request
grep -hiE 'measured from|hardware counters|administrat|sectors per request|bank' "$E"/student_*.txt | head -30 >> "$summary"
