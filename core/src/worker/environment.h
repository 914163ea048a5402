#pragma once
/// The environment a spawned process gets: this process's, with some entries replaced or added.
#include <string>
#include <vector>

namespace launchlab::detail {

/// This process's environment with `extra`'s "NAME=value" entries replacing or adding theirs, null-terminated, for
/// posix_spawn (the pointers stay valid while `extra` and the environment do).
std::vector<char*> environmentWith(std::vector<std::string>& extra);

}  // namespace launchlab::detail
