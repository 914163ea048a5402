#!/usr/bin/env bash
# LaunchLab one-command set-up for Debian 12 (run as root from the repository root).
#   bash scripts/setup.sh run    install what is missing, build, start LaunchLab (the GUI; the CLI demo without a display)
#   bash scripts/setup.sh test   install what is missing, build the CUDA-enabled and the CPU-only configurations,
#                                and run the whole test suite of each
# Safe to run again: installs only what is missing and rebuilds incrementally.
# Environment: LAUNCHLAB_CUDA_ARCHS overrides the CUDA architectures (e.g. "90"); LAUNCHLAB_JOBS the build jobs;
# LAUNCHLAB_WERROR=1 makes C++ warnings errors (CI sets it). LAUNCHLAB_UNITY_BUILD=1 compiles core's, the CLI's,
# the window's and the suites' files in batches (cmake/LaunchLabUnity.cmake: a shorter build from scratch, as in CI;
# longer rebuilds after an edit).
# LAUNCHLAB_NUMBA=1/0 makes (or skips) the .venv with numba-cuda for kernels written in Numba (default: run makes
# it when python3 can make a virtual environment, test skips it and the Numba tests say they were skipped).
set -euo pipefail
MODE=${1:-run}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
say() { printf '\n==> %s\n' "$*"; }
JOBS=${LAUNCHLAB_JOBS:-$(nproc)}

case "$MODE" in run|test) ;; *) echo "usage: bash scripts/setup.sh run|test" >&2; exit 2 ;; esac

# ---- 1. Debian packages -------------------------------------------------------------------------------------
PKGS=(g++ cmake ninja-build git libeigen3-dev nlohmann-json3-dev libcli11-dev libarchive-dev libgtest-dev
      qt6-base-dev qt6-svg-dev libqt6opengl6-dev libgl-dev libqcustomplot-dev libqcustomplot2.1-qt6
      qt6-httpserver-dev qt6-websockets-dev libqrencode-dev
      fonts-dejavu-core xvfb xauth)
# test: an OpenSSH server for the remote-GPU test (tests/cli/test_remote_ssh.cpp starts its own sshd on 127.0.0.1
# with throwaway keys; LAUNCHLAB_REQUIRE_SSHD=1 makes a missing sshd a failure there, not a skip).
[ "$MODE" = test ] && PKGS+=(openssh-server openssh-client) && export LAUNCHLAB_REQUIRE_SSHD=1
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "Installing missing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "Not root: install them with: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  say "Debian packages: all present"
fi

# ---- 2. CUDA toolkit (used from /usr/local/cuda when present) ---------------------------------------------------
CUDA_ARGS=()
if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null 2>&1; then
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  say "CUDA toolkit: $("$NVCC" --version | tail -n 2 | head -n 1)"
  if [ -n "${LAUNCHLAB_CUDA_ARCHS:-}" ]; then
    ARCHS=$LAUNCHLAB_CUDA_ARCHS
  elif [ "$MODE" = test ]; then
    ARCHS="90"   # CI: one architecture keeps the build short; the release list is the CMake default
  elif command -v nvidia-smi >/dev/null 2>&1 && cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1) && [ -n "$cc" ]; then
    ARCHS="${cc/./}-real;${cc/./}-virtual"   # this machine's GPU only: a much faster first build
    echo "    building for this machine's GPU (compute capability $cc)"
  else
    ARCHS=""
  fi
  [ -n "$ARCHS" ] && CUDA_ARGS+=("-DLAUNCHLAB_CUDA_ARCHS=$ARCHS")
else
  say "CUDA toolkit: not found (no /usr/local/cuda/bin/nvcc): CPU-only build, CUDA implementations will be skipped"
fi

# ---- 3. Numba (kernels written in Python: launchlab/numba/numba.h) -----------------------------------------------------
# A project virtual environment with pinned numba-cuda, which the programs find (.venv/bin/python3). Optional:
# without it .py kernel files say how to get it, and everything else works.
# The whole set is pinned, its dependencies too (NumPy 2.5 drops np.row_stack, which numba 0.68 still names).
NUMBA_PINS=(numba-cuda==0.30.4 numba==0.68.1 llvmlite==0.50.0 numpy==2.4.6 cuda-bindings==13.5.0 cuda-core==1.2.2
            cuda-pathfinder==1.9.1 packaging==26.4)
numba_default=1
[ "$MODE" = test ] && numba_default=0
if [ "${LAUNCHLAB_NUMBA:-$numba_default}" = 1 ]; then
  if [ -x "$ROOT/.venv/bin/python3" ] && "$ROOT/.venv/bin/python3" -c "import numba.cuda" 2>/dev/null; then
    say "Numba: .venv has numba-cuda"
  elif command -v python3 >/dev/null 2>&1 && python3 -m venv --help >/dev/null 2>&1; then
    say "Numba: making .venv with ${NUMBA_PINS[*]} (pip caches the wheels)"
    { python3 -m venv "$ROOT/.venv" && "$ROOT/.venv/bin/pip" install -q "${NUMBA_PINS[@]}"; } \
      || echo "    could not install numba-cuda (offline?): .py kernels will say how; nothing else needs it" >&2
  else
    say "Numba: skipped (no python3 with venv: apt-get install python3-venv, then run this again)"
  fi
fi

WERROR=OFF
[ "${LAUNCHLAB_WERROR:-0}" = 1 ] && WERROR=ON
configure_and_build() {  # dir, extra cmake args...
  local dir=$1; shift
  set -- "$@" "-DLAUNCHLAB_WERROR=$WERROR"
  [ "${LAUNCHLAB_UNITY_BUILD:-0}" = 1 ] && set -- "$@" -DLAUNCHLAB_UNITY_BUILD=ON
  say "Configuring $dir (${*:-default options})"
  cmake -S "$ROOT" -B "$ROOT/$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" > "$ROOT/$dir.configure.log" 2>&1 \
    || { cat "$ROOT/$dir.configure.log"; exit 1; }
  grep -A20 "The following features have been enabled" "$ROOT/$dir.configure.log" | sed -n '1,12p' || true
  say "Building $dir with $JOBS jobs"
  cmake --build "$ROOT/$dir" -j "$JOBS"
}

if [ "$MODE" = test ]; then
  configure_and_build build "${CUDA_ARGS[@]}"
  dirs=(build)
  # CI (.ci/run) sets LAUNCHLAB_SKIP_CPU_ONLY=1: scripts/ci_sanitizers.sh builds and tests the same CPU-only
  # configuration under ASan + UBSan right after, so building it twice would only cost time.
  if [ "${LAUNCHLAB_SKIP_CPU_ONLY:-0}" = 1 ]; then
    say "CPU-only configuration: left to scripts/ci_sanitizers.sh (LAUNCHLAB_SKIP_CPU_ONLY=1)"
  else
    configure_and_build build-cpu -DLAUNCHLAB_CUDA=OFF -DLAUNCHLAB_GUI=OFF
    dirs+=(build-cpu)
  fi
  status=0
  for dir in "${dirs[@]}"; do
    say "Running the test suite of $dir (GPU tests skip without a device)"
    (cd "$ROOT/$dir" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$JOBS" --timeout 600) || status=1
  done
  [ $status -eq 0 ] && say "All test suites passed" || say "Some tests failed"
  exit $status
fi

# ---- run: the GUI when there is a display, else the CLI demo ---------------------------------------------------
configure_and_build build "${CUDA_ARGS[@]}"
CLI="$ROOT/build/app/launchlab-cli"
demo="vector_add"
"$CLI" list --json | grep '"id": "pulse_waveform"' >/dev/null && demo="pulse_waveform"  # no -q: with pipefail an early exit would SIGPIPE the CLI
if [ -x "$ROOT/build/app/launchlab" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  say "Starting the LaunchLab window"
  exec "$ROOT/build/app/launchlab"
fi
if [ -x "$ROOT/build/app/launchlab" ]; then
  say "No display (DISPLAY and WAYLAND_DISPLAY are unset): running the CLI demo instead of the window"
else
  say "The GUI was not built (no Qt 6 / QCustomPlot): running the CLI demo"
fi
"$CLI" info
say "launchlab-cli run $demo"
"$CLI" run "$demo" --reps 5
