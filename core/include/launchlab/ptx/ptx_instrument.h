#pragma once
/// Instrumenting PTX to measure a kernel's memory accesses from the kernel itself (docs/ACCESS_COUNTERS.md): no
/// profiling rights needed. The pass reads the PTX that NVRTC, nvcc -ptx or Numba produce and puts a probe before
/// each ld / st / atom / red of the global, shared and generic spaces (scalar, .v2, .v4; 1 to 16 bytes). Per warp
/// the probe computes, with warp intrinsics over the lanes' addresses, the sectors the request touches, the shared
/// wavefronts and their ideal, and the lanes taking part, and one lane adds them to the access's counter record
/// (ptx_counters.h) in a buffer whose device address the loader writes to the module's global kCountersSymbol.
///
/// The kernel's own instructions are kept byte for byte, in order: a probe only reads the access's address
/// operand and predicate and writes registers declared in its own { } scope (named so that they cannot be the
/// kernel's) and the counter buffer. Every access the pass finds and cannot instrument is listed with the reason,
/// never skipped in silence. No CUDA here: the pass is text to text, and runs without a GPU.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace launchlab::ptx {

/// The module-scope .global .u64 the probes read the counter buffer's address from (set before the launch).
inline constexpr std::string_view kCountersSymbol = "__launchlab_access_counters";
/// The largest PTX the pass reads.
inline constexpr std::size_t kMaxPtxBytes = 64u << 20;

enum class PtxSpace { Global, Shared, Generic, Local, Const, Other };
enum class PtxAccessKind { Load, Store, Atomic, Reduction };

/// One memory access instruction found in the PTX.
struct PtxAccess {
  int counter = -1;      ///< its record's index in the counter buffer; -1 when not instrumented
  std::string function;  ///< the .entry or .func it is in
  std::string file;      ///< source file from .loc / .file ("" when the PTX has no line info)
  int line = 0;          ///< source line (0: none)
  int ptxLine = 0;       ///< 1-based line in the original PTX
  PtxSpace space = PtxSpace::Generic;
  PtxAccessKind kind = PtxAccessKind::Load;
  int widthBytes = 0;       ///< bytes per lane (vector × element); 0 when unknown
  std::string instruction;  ///< the opcode as written: "ld.global.nc.v4.f32"
  std::string reason;       ///< empty when instrumented; else why it is not counted
  bool instrumented() const { return counter >= 0; }
};

struct PtxInstrumentation {
  std::string error;                 ///< set: the PTX could not be read (one line); nothing else is meaningful
  std::string ptx;                   ///< the instrumented module
  std::vector<PtxAccess> accesses;   ///< in PTX order
  int records = 0;                   ///< counter records the buffer needs (kRecordBytes each)
  std::vector<std::string> kernels;  ///< the .entry names
  std::string target;                ///< "sm_90" as the PTX's .target says
  bool ok() const { return error.empty(); }
};

/// Instruments `ptx`. Never throws; unreadable input is `error` ("line 3: ..."), accesses it cannot instrument
/// have a `reason`.
PtxInstrumentation instrumentPtx(std::string_view ptx);

std::string_view spaceName(PtxSpace s);
std::string_view kindName(PtxAccessKind k);
/// "line 31: a ld.global.v8.f32 (32 bytes) is not counted: wider than 16 bytes" / "line 8: ld.global 4 B load,
/// counted".
std::string describeAccess(const PtxAccess& a);

/// The kernels (.entry) of a module, in order.
std::vector<std::string> ptxEntryNames(std::string_view ptx);
/// The entry of `entries` that is the kernel `mangled` (the name the CUDA runtime gives a compiled-in kernel's host
/// stub): the same name, or the same up to the ids of anonymous namespaces, which depend on how a file was
/// compiled. nullopt when none is, or when several are.
std::optional<std::string> matchingEntry(const std::vector<std::string>& entries, std::string_view mangled);
/// The module with one kernel: its directives, module-scope variables and device functions, and the entry
/// `entry` alone (what the JIT compiles is then that kernel, not every kernel of the module). Empty, with `error`
/// set, when the module has no such entry.
std::string ptxWithOnlyEntry(std::string_view ptx, std::string_view entry, std::string* error = nullptr);

}  // namespace launchlab::ptx
