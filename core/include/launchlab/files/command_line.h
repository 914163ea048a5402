#pragma once
/// The `launchlab-cli run` command line that reproduces a request: the window's "copy as command". Every field a
/// request holds is written (reps, warm-up and seed too, so a changed default cannot change the run), each word
/// quoted for a POSIX shell where it needs it. `launchlab-cli run … --dry-run` prints the same line back after
/// parsing and validating it, so the round trip goes through the CLI's own parser.
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/request.h"

namespace launchlab {

/// `word` as one POSIX shell word: unchanged when it holds only [A-Za-z0-9_./:=,+@%^-] (and is not empty),
/// else in single quotes with each ' written '\''.
std::string shellQuote(std::string_view word);
/// The arguments after the program name: run WORKLOAD [--n N] [--dtype T] [--block B] [--grid G] [--impl I]
/// --reps R --warmup W --seed S [--param K=V]… [--input K=F]… [--device D]. keepInputs/keepOutputs are not part of it.
std::vector<std::string> runCommandArgs(const RunRequest& req);
/// "launchlab-cli " followed by the quoted arguments.
std::string runCommandLine(const RunRequest& req);

}  // namespace launchlab
