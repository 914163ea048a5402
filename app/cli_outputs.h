#pragma once
/// The files a command writes, checked against what it reads: an output that names an input, or another output,
/// would destroy it (a --json over the --input .npy), so it is refused before anything runs.
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace launchlab::cli {

/// The options that name outputs ("--json", path), in the order given; "" and "-" (standard output) are skipped.
using NamedPaths = std::vector<std::pair<std::string, std::string>>;

/// "" when every output is its own file, else the first clash as "OPTION: PATH is also the input NAME" or
/// "OPTION: PATH is also --json". Paths are compared as files: through symbolic links, ".", ".." and hard links.
std::string outputClash(const NamedPaths& outputs, const std::map<std::string, std::string>& inputs);

}  // namespace launchlab::cli
