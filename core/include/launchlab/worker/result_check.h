#pragma once
/// Checks of a result that comes from outside this process (a worker's reply, a run file) before the window or an
/// export uses it: names that become file names, and arrays that the views index with each other's indices.
#include <string>
#include <string_view>

#include "launchlab/engine/result.h"

namespace launchlab {

/// A name of an array or an implementation that may become a file name (exports, run files): 1 to 128 of
/// [A-Za-z0-9_.-], not starting with '.' (so never "." or "..", never a path) nor '-' (never read as an option).
/// Course ids follow the same rule.
bool safeFileName(std::string_view s);

/// "" or what is wrong with `r`'s arrays: an implementation id or array name that is not a safe file name, a name
/// twice in one list, or outputs of one name whose dtype or shape differ between implementations (the views read
/// the reference's output at the indices of the one shown).
std::string checkResultArrays(const RunResult& r);

}  // namespace launchlab
