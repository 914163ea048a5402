#pragma once
/// Short-lived helper programs whose output is read whole: compute-sanitizer (the CLI's check), Slurm's squeue,
/// scancel and sinfo (slurm.h), each with a time limit so that a tool that hangs cannot hang the caller.
#include <cstddef>
#include <string>
#include <vector>

namespace launchlab {

/// What captureCommand() got: stdout and stderr together, the exit status (-1 when it did not start or was killed),
/// and whether the time limit stopped it.
struct Captured {
  std::string output;
  int status = -1;
  bool timedOut = false;
  bool overflowed = false;  ///< printed more than the bound: stopped, and `output` holds the first bytes only
};

/// Runs argv (argv[0] found on PATH when it has no '/') in a process group of its own, for at most `limitS`
/// seconds: past that, the whole group (the tool and what it started) is killed. So is a tool that prints more than
/// `maxOutputBytes` (a runaway helper cannot fill the caller's memory).
Captured captureCommand(const std::vector<std::string>& argv, double limitS,
                        std::size_t maxOutputBytes = std::size_t(-1));

/// Splits a command's text at spaces and tabs into words (no quoting: the settings' "ssh -i key" or Slurm's extra
/// arguments "--gres=gpu:1 --qos=class").
std::vector<std::string> splitWords(const std::string& text);

}  // namespace launchlab
