#!/usr/bin/env bash
# The class poll under load, on the machine it runs on: 60 clients answering at once (the time until the stage shows
# their 60 answers; scripts/bench/poll_class.py), then a flood of 10 000 requests from one host at the stage (the
# longest event-loop gap meanwhile and the memory it grew by; the test aFloodFromOneHostKeepsTheStageDrawing, whose
# CI run sends 1000).
#
#   scripts/bench/poll_load.sh BUILD_DIR [COURSE_ID] [CLIENTS] [FLOOD]
#
# BUILD_DIR holds app/launchlab and tests/ui/test_stage_poll; COURSE_ID defaults to es-coalescing, CLIENTS to 60 and
# FLOOD to 10000. Offscreen unless DISPLAY is set. Exits non-zero when either part fails.
set -u
build=${1:?usage: poll_load.sh BUILD_DIR [COURSE_ID] [CLIENTS] [FLOOD]}
course=${2:-es-coalescing}
clients=${3:-60}
flood=${4:-10000}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export QT_LOGGING_RULES="qt.qpa.*=false"
[[ -n ${DISPLAY:-} ]] || export QT_QPA_PLATFORM=offscreen
XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
export XDG_RUNTIME_DIR
rc=0
python3 "$here/poll_class.py" "$build/app/launchlab" --course "$course" --clients "$clients" || rc=1
out=$(LAUNCHLAB_POLL_FLOOD=$flood "$build/tests/ui/test_stage_poll" aFloodFromOneHostKeepsTheStageDrawing 2>&1)
trc=$?
grep -E 'requests:|memory:|PASS|FAIL|Totals' <<<"$out"
[[ $trc == 0 ]] || rc=1
exit $rc
