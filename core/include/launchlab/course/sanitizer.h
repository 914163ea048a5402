#pragma once
/// `launchlab-cli check`: a student's kernel under compute-sanitizer (docs/EXERCISES.md, "Check"). Pure functions:
/// reading the sanitizer's report into findings at source lines, and the one-line form the CLI prints and the
/// window reads back. No process is started here.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace launchlab {

/// One finding of a compute-sanitizer tool, at the source line it names (0 when it names none, e.g. an API error).
struct SanitizerFinding {
  std::string tool;  ///< "memcheck", "racecheck"
  std::string file;  ///< as the report names it ("" when none)
  int line = 0;
  std::string text;  ///< "Invalid __global__ write of size 4 bytes by thread (0,0,0) in block (3,0,0)"
  bool operator==(const SanitizerFinding&) const = default;
};

/// Reads compute-sanitizer's text report (every line prefixed "========= "): memcheck's
/// "Invalid __global__ write of size 4 bytes" / "    at KERNEL+0x70 in FILE:LINE" (also the older
/// "at 0x70 in FILE:LINE:KERNEL"), racecheck's "Error: Race reported between Write access at ... in FILE:LINE"
/// / "    and Read access at ... in FILE:LINE [4 hazards]" and its hazard form "ERROR: Potential WAW hazard detected
/// ..." / "    Write Thread (0, 0, 0) at 0x88 in FILE:LINE:KERNEL"; a "Program hit ..." API error becomes a finding
/// without a line. Summaries, host frames and the banner are skipped.
std::vector<SanitizerFinding> parseSanitizerReport(std::string_view report, std::string_view tool);

/// "FILE:LINE: TOOL: TEXT" (or "FILE: TOOL: TEXT" without a line): what `check` prints, one line per finding.
std::string formatFinding(const SanitizerFinding& f);
/// Reads a line formatFinding wrote; nothing for any other line.
std::optional<SanitizerFinding> parseFindingLine(std::string_view line);

/// True when the source declares shared memory (`__shared__` outside comments): racecheck is worth running.
bool usesSharedMemory(std::string_view source);

/// Where compute-sanitizer is: `$PATH`'s entries, then `$CUDA_HOME/bin`, then /usr/local/cuda/bin (arguments
/// rather than the environment, so tests choose them); "" when none holds an executable one.
std::string findComputeSanitizer(std::string_view pathVar, std::string_view cudaHome);

}  // namespace launchlab
