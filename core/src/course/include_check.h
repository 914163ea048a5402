#pragma once
// The #include lines of a student's kernel that NVRTC must not open (not public API).
#include <string>
#include <string_view>

#include "launchlab/course/exercise.h"

namespace launchlab {

/// The first `#include "x"` or `#include <x>` of `source` whose file, looked up beside `fileName` or from the
/// current folder, exists and is not a regular file (a FIFO would block the compiler; a device never ends), as an
/// error at its line; a Diagnostic with empty text when there is none. Folders and missing files are NVRTC's to
/// report.
Diagnostic refusedInclude(std::string_view source, const std::string& fileName);

}  // namespace launchlab
