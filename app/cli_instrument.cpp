#include "cli_instrument.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <tuple>

#include "cli_commands.h"
#include "launchlab/course/nvrtc.h"
#include "launchlab/engine/dtype.h"
#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/lesson_ptx.h"
#include "launchlab/numba/numba.h"
#include "launchlab/ptx/ptx_instrument.h"

namespace launchlab::cli {

namespace {

/// The PTX of a student's kernel: NVRTC for the GPU's (or --gpu-profile's) virtual architecture, or Numba's for a
/// .py kernel (the PTX the run loads, from the same cache).
std::string studentPtx(const Engine& engine, const InstrumentOptions& o, std::map<std::string, std::string>& kernels) {
  const auto k = userKernelOf(o.kernel);
  const Exercise* ex = exerciseFor(o.workload, k->exercise);
  if (!ex) throw BadUsage("--kernel-file: workload " + o.workload + " has no exercise (see 'course')");
  const std::string arch = compileArch(engine, o.kernel.gpuProfile);
  CompileResult compiled;
  if (isPythonKernel(*k)) {
    compiled = compileNumbaKernel(*k, *ex, arch);
    compiled.ptx = std::move(compiled.cubin);  // Numba's "image" is its PTX
  } else {
    compiled = compileUserKernelToPtx(*k, *ex, arch);
  }
  for (const auto& d : compiled.diagnostics) std::cout << formatDiagnostic(d) << "\n";
  if (!compiled.unavailable.empty()) throw KernelInputError("--kernel-file: " + compiled.unavailable);
  if (!compiled.ok) throw KernelInputError("--kernel-file: " + k->fileName + " does not compile");
  kernels[compiled.loweredName] = effectiveKernelName(*k, *ex);
  return compiled.ptx;
}

/// The compiled-in PTX of a built-in implementation, and the entries of its kernels for the run's dtype.
std::string builtinPtx(const Engine& engine, const InstrumentOptions& o, std::map<std::string, std::string>& kernels) {
  const Workload* w = engine.registry().find(o.workload);
  const auto& impls = w->impls();
  const auto spec = std::find_if(impls.begin(), impls.end(), [&](const ImplSpec& s) { return s.id == o.impl; });
  if (spec == impls.end()) throw BadUsage("--impl: " + o.workload + " has no implementation " + o.impl);
  if (spec->kind != ImplKind::Cuda) throw BadUsage("--impl: " + o.impl + " is not a CUDA implementation");
  const auto ptx = kernels::lessonPtx(o.workload);
  if (ptx.empty()) {
    const auto have = kernels::lessonPtxWorkloads();
    std::string list;
    for (const auto& h : have) list += (list.empty() ? "" : ", ") + h;
    throw BadUsage("--impl: no PTX of " + o.workload + "'s kernels is compiled in" +
                   (have.empty() ? std::string(" (a build without CUDA)") : " (only of " + list + ")"));
  }
  const auto dtype = parseDType(o.dtype);
  if (!dtype) throw BadUsage("--dtype: unknown dtype " + o.dtype);
  std::vector<KernelRecord> entries;
  for (const auto& name : ptx::instrumentPtx(ptx).kernels) {
    KernelRecord r;
    r.arch = "ptx";
    r.symbol = name;
    splitKernelName(demangle(name), r);
    entries.push_back(r);
  }
  for (const auto& r : selectKernels(entries, "ptx", o.workload, spec->kernels, *dtype))
    kernels[r.symbol] = r.qualified();
  if (kernels.empty()) throw BadUsage("--impl: no kernel of " + o.impl + " was found in the compiled-in PTX");
  return std::string(ptx);
}

/// One row of the table: an access of a kernel template at a source line, counted over its instantiations and
/// unrolled copies.
using RowKey = std::tuple<std::string, int, std::string, std::string>;  // file, line, what, status

std::string rowWhat(const ptx::PtxAccess& a) {
  return std::string(ptx::spaceName(a.space)) + " " + (a.widthBytes > 0 ? std::to_string(a.widthBytes) + " B " : "") +
         std::string(ptx::kindName(a.kind));
}

void printTable(const ptx::PtxInstrumentation& inst, const std::map<std::string, std::string>& kernels) {
  std::map<std::string, std::set<std::string>> instantiations;  // template → symbols
  std::map<std::string, std::map<RowKey, int>> rows;
  int listed = 0, counted = 0;
  for (const auto& a : inst.accesses) {
    const auto k = kernels.find(a.function);
    if (k == kernels.end()) continue;
    instantiations[k->second].insert(a.function);
    const auto file = a.file.substr(a.file.find_last_of('/') + 1);
    ++rows[k->second][{file, a.line, rowWhat(a), a.instrumented() ? "counted" : "not counted: " + a.reason}];
    ++listed;
    counted += a.instrumented();
  }
  for (const auto& [name, table] : rows) {
    const auto n = instantiations[name].size();
    std::cout << "kernel " << name << (n > 1 ? " (" + std::to_string(n) + " instantiations)" : "") << "\n";
    for (const auto& [key, count] : table) {
      const auto& [file, line, what, status] = key;
      std::string where = (file.empty() ? "?" : file) + ":" + (line > 0 ? std::to_string(line) : "?");
      where.resize(std::max<std::size_t>(where.size() + 1, 24), ' ');
      std::string w = what;
      w.resize(std::max<std::size_t>(w.size() + 1, 22), ' ');
      std::cout << "  " << where << w << status << (count > 1 ? " (x" + std::to_string(count) + ")" : "") << "\n";
    }
  }
  std::cout << listed << " memory accesses, " << counted << " counted, " << listed - counted << " not counted (PTX for "
            << inst.target << ")\n";
}

}  // namespace

int cmdInstrument(const Engine& engine, const InstrumentOptions& o) {
  if (!engine.registry().find(o.workload))
    throw BadUsage("instrument: unknown workload " + o.workload + " (see 'list')");
  if (o.impl.empty() == o.kernel.file.empty()) throw BadUsage("instrument: give --impl ID or --kernel-file FILE");
  if (!o.ptxOut.empty()) checkOutputFile("--ptx-out", o.ptxOut);
  std::map<std::string, std::string> kernels;  // symbol → the kernel (template) it instantiates
  const auto ptx = o.impl.empty() ? studentPtx(engine, o, kernels) : builtinPtx(engine, o, kernels);
  const auto inst = ptx::instrumentPtx(ptx);
  if (!inst.ok()) throw BadUsage("instrument: " + inst.error);
  printTable(inst, kernels);
  if (!o.ptxOut.empty()) {
    std::ofstream out(o.ptxOut, std::ios::binary);
    out << inst.ptx;
    if (!out) throw BadUsage("--ptx-out: cannot write " + o.ptxOut);
  }
  return 0;
}

}  // namespace launchlab::cli
