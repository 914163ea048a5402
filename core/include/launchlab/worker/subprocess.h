#pragma once
/// Short-lived helper programs whose output is read: compute-sanitizer (the CLI's check), Slurm's squeue, scancel
/// and sinfo (slurm.h), each with a time limit so that a tool that hangs cannot hang the caller, and a cap on the
/// output kept so that a tool that floods cannot exhaust memory. Also work that must not run in this process
/// (runInChild: NVRTC, which can hang on an include or grow without end).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "launchlab/engine/cancel.h"

namespace launchlab {

/// The output captureCommand() keeps of a tool: the first 64 KiB (far more than sinfo, squeue or a sanitizer report
/// of the kernels this course runs print); the rest is read and dropped.
inline constexpr std::size_t kMaxCapturedBytes = std::size_t(64) << 10;

/// What captureCommand() or runInChild() got: stdout and stderr together (at most the cap), the exit status (-1 when
/// it did not start or was killed), and why it stopped early.
struct Captured {
  std::string output;
  int status = -1;
  int signal = 0;           ///< the signal that ended it (0: it exited, or never started)
  bool timedOut = false;    ///< the time limit stopped it (its process group was killed)
  bool cancelled = false;   ///< the cancel token stopped it (its process group was killed)
  std::size_t dropped = 0;  ///< bytes of output past the cap, read and not kept
  bool flooded = false;     ///< it printed past kMaxDrainedBytes (or 16 times the cap) and was stopped
};

/// Output past the cap is read and dropped, so that a tool that prints a little too much still finishes; past this
/// much (or 16 times the cap, whichever is more) it is stopped.
inline constexpr std::size_t kMaxDrainedBytes = std::size_t(16) << 20;

/// Runs argv (argv[0] found on PATH when it has no '/') in a process group of its own, for at most `limitS`
/// seconds: past that, or once `cancel` is set, the whole group (the tool and what it started) is killed. Keeps the
/// first `maxOutputBytes`.
Captured captureCommand(const std::vector<std::string>& argv, double limitS,
                        std::size_t maxOutputBytes = kMaxCapturedBytes, const CancelToken* cancel = nullptr);

/// Limits of a child process started by runInChild().
struct ChildLimits {
  double seconds = 30;                              ///< wall-clock time, then the child's group is killed
  std::size_t memoryBytes = std::size_t(2) << 30;   ///< address space it may add to what it inherits (RLIMIT_AS)
  std::size_t outputBytes = std::size_t(64) << 20;  ///< what is kept of what it writes
};

/// Runs `body` in a forked child (a process group of its own, no core files, address space capped), which writes
/// its answer to the descriptor it is given and exits 0 when `body` returns (125 when it throws). The parent reads the
/// answer until the child closes it, the time limit passes, or `cancel` is set (checked every 50 ms): then the group is
/// killed and the call returns at once. `body` runs in a copy of a possibly multi-threaded process: it may allocate
/// (glibc makes malloc safe across fork) but must not wait for a lock that another thread could hold.
Captured runInChild(const std::function<void(int fd)>& body, const ChildLimits& limits,
                    const CancelToken* cancel = nullptr);

/// Splits a command's text at spaces and tabs into words (no quoting: the settings' "ssh -i key" or Slurm's extra
/// arguments "--gres=gpu:1 --qos=class").
std::vector<std::string> splitWords(const std::string& text);

}  // namespace launchlab
