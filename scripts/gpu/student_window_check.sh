#!/usr/bin/env bash
# Runs ON the GPU machine, from the window's bundle (SUITES=ui scripts/gpu/bundle_suites.sh) and CUPTI's libraries
# (CUPTI_DIR, as scripts/gpu/counters_check.sh takes them):
#   1. shared memory, hardware against accesses (root): the bank-conflict counter and the wavefronts per shared request
#      of the padded and unpadded transpose tiles and of matmul's 16-wide tiles, where the two ways disagreed;
#   2. the student's unpadded transpose (tests/data/counters/transpose_unpadded_tile.cu) run from the CLI, measured
#      from its accesses (as a user made with useradd) and by CUPTI (root): the runs the window's tests replay;
#   3. the window as that user, counters measured from the kernels' accesses: test_line_counters (its GPU slot runs
#      the student's transpose and the coalescing lesson through the worker, screenshots at both sizes), then the
#      coalescing lesson opened with --course, normal and presentation.
# Usage: scripts/gpu/student_window_check.sh BUNDLE OUT_DIR   (OUT_DIR gets student_window.tar.gz, summary.txt)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BUNDLE=${1:?bundle}
FINAL=${2:?out dir}
source "$HERE/lib/check.sh"
ROOT=/tmp/student-window  # readable by the student: the bundle's build tree is recreated at its absolute path
rm -rf "$ROOT" && mkdir -p "$ROOT"
unpack_suites "$BUNDLE" "$ROOT"
check_begin student_window "$G/bin" "$FINAL"
CUPTI=${CUPTI_DIR:-}
[ -n "$CUPTI" ] && export LD_LIBRARY_PATH="$CUPTI:$LD_LIBRARY_PATH"
note "RmProfilingAdminOnly: $(grep -h RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null || echo unknown)"

PARTS=${STUDENT_WINDOW_PARTS:-1 2 3}  # which of the three parts run
part() { [[ " $PARTS " == *" $1 "* ]]; }

# 1. Shared memory both ways.
shared=bank_conflicts_ld,bank_conflicts_st,shared_wavefronts_per_request
part 1 && for point in "transpose --n 4096 --impl cuda-tile,cuda-tile-padded" "matmul --n 1024 --impl cuda-tiled-16"; do
  name=$(echo "$point" | cut -d' ' -f1)
  for src in hardware accesses; do
    step "shared_${name}_$src" 180 run $point --reps 5 --warmup 1 --counters="$src" --metrics "$shared" \
      --json "$E/shared_${name}_$src.json"
    grep -E "bank conflicts|wavefronts" "$E/shared_${name}_$src.txt" | sed "s/^/  $src: /" >> "$summary"
  done
done

# 2. The student's transpose from the CLI: the window tests' recorded runs.
KFILE=$REPO/tests/data/counters/transpose_unpadded_tile.cu
transpose_run=(run transpose --n 4096 --block 32x32 --impl cpu-serial,cuda-naive,cuda-tile,my-kernel
  --kernel-file "$KFILE" --exercise transpose --warmup 3 --reps 20)
part 2 && step transpose_hardware 240 "${transpose_run[@]}" --counters=hardware --json "$E/transpose_hardware.json"
id student > /dev/null 2>&1 || useradd -m student
chmod -R a+rX "$ROOT" "$REPO" ${CUPTI:+"$CUPTI"}
chmod a+rx /tmp
as_student() {  # NAME COMMAND...: a shell command line as the student, with this environment, output in NAME.txt
  local name=$1
  shift
  su student -s /bin/bash -c "export LD_LIBRARY_PATH='$LD_LIBRARY_PATH' \
    QT_QPA_PLATFORM_PLUGIN_PATH='$QT_QPA_PLATFORM_PLUGIN_PATH' FONTCONFIG_FILE='$FONTCONFIG_FILE' \
    HOME=/home/student XDG_RUNTIME_DIR=/tmp/student-xdg QT_LOGGING_RULES='qt.qpa.*=false' \
    LAUNCHLAB_CLI_PATH='$LAUNCHLAB_CLI_PATH' ${__EGL_VENDOR_LIBRARY_FILENAMES:+__EGL_VENDOR_LIBRARY_FILENAMES='$__EGL_VENDOR_LIBRARY_FILENAMES'}
    cd /tmp && $*" > "$E/$name.txt" 2>&1
  note "$name (as student): exit $?"
}
mkdir -p /tmp/student-xdg && chown student /tmp/student-xdg && chmod 700 /tmp/student-xdg
STU=/tmp/student-out && rm -rf "$STU" && mkdir -p "$STU/shots" && chown -R student "$STU"
part 2 && as_student transpose_accesses "$C ${transpose_run[*]} --counters=accesses --by-line --json $STU/transpose_accesses.json"
part 2 && grep -E "counters|line 3[59]" "$E/transpose_accesses.txt" | head -8 >> "$summary"

# 3. The window as the student.
part 3 || { cp -r "$STU"/* "$E/"; exit 0; }
as_student line_counters "cd $BUILD/tests/ui && LAUNCHLAB_LINE_COUNTERS_SHOTS=$STU/shots QT_QPA_PLATFORM=offscreen \
  timeout 400 ./test_line_counters"
grep -E "PASS|FAIL|SKIP|Totals|Loc" "$E/line_counters.txt" | head -30 >> "$summary"
for size in 1280x720 1920x1080; do
  w=${size%x*} h=${size#*x}
  cfg=$STU/screen_$size.json
  printf '{"windowFrames": false, "screens": [{"name": "s", "x": 0, "y": 0, "width": %s, "height": %s, "logicalDpi": 96, "dpr": 1}]}\n' "$w" "$h" > "$cfg"
  for mode in normal presentation; do
    extra=
    [ $mode = presentation ] && extra=--presentation
    as_student "lesson_${mode}_$size" "LAUNCHLAB_COUNTER_SOURCE=accesses QT_QPA_PLATFORM=offscreen:configfile=$cfg \
      timeout 150 $G/bin/launchlab --course es-coalescing $extra --screenshot $STU/shots/gpu_es-coalescing_student_${mode}_$size.png"
  done
done
cp -r "$STU"/* "$E/"
