// "my-kernel" written in Numba: the PTX numba.cuda.compile_ptx gave (launchlab/numba/numba.h, compiled once per file
// content and cached), loaded with cudaLibraryLoadData (the driver JIT-compiles PTX for the device) and launched
// through the same pipeline as the C++ kernels, with each array passed as Numba's array model lays it out.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/user_kernel_launch.cuh"
#include "launchlab/engine/errors.h"
#include "launchlab/numba/numba.h"

namespace launchlab::kernels {

namespace {

/// Numba's array model, one 8-byte parameter each: meminfo, parent (both null: the harness owns the memory),
/// nitems, itemsize, data, shape[rank], strides[rank] in bytes (C-contiguous).
void pushArray(std::vector<std::uint64_t>& slots, const void* data, std::size_t itemsize,
               const std::vector<std::uint64_t>& shape) {
  std::uint64_t items = 1;
  for (auto s : shape) items *= s;
  slots.insert(slots.end(), {0, 0, items, itemsize, reinterpret_cast<std::uintptr_t>(data)});
  slots.insert(slots.end(), shape.begin(), shape.end());
  std::uint64_t stride = itemsize;
  std::vector<std::uint64_t> strides(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  slots.insert(slots.end(), strides.begin(), strides.end());
}

/// The shape an array argument is passed with: its element count (1-D), or the contract's rows x cols (2-D),
/// which must cover the run's array exactly.
std::vector<std::uint64_t> shapeOf(const NumbaArg& a, const Exercise& ex, const HostArray& host,
                                   const RunSetup& setup) {
  if (a.rank == 1) return {host.size()};
  const auto [rows, cols] = numbaMatrixShape(ex, a, setup);
  if (rows * cols != host.size())
    throw std::runtime_error("the Numba contract's " + std::to_string(rows) + " x " + std::to_string(cols) +
                             " does not match " + host.name() + "'s " + std::to_string(host.size()) + " elements");
  return {rows, cols};
}

/// Every parameter of one launch, in the kernel's order (the contract's, or the kernel's own list).
std::vector<std::uint64_t> numbaSlots(const ImplContext& ctx, const Exercise& ex, const std::vector<NumbaArg>& args,
                                      const gpu::DeviceArrays& d, void* hits) {
  std::vector<std::uint64_t> slots;
  for (const NumbaArg& a : args) {
    if (a.fixedBits) {  // a fixed scalar: a 1- or 4-byte one in the slot's first bytes (little-endian)
      slots.push_back(*a.fixedBits);
      continue;
    }
    const ExerciseArg& e = ex.args[a.arg];
    const auto i = std::size_t(e.index);
    switch (e.kind) {
      case ExerciseArg::Kind::Input:
        pushArray(slots, d.in.at(i).get(), dtypeSize(ctx.inputs.at(i).dtype()),
                  shapeOf(a, ex, ctx.inputs.at(i), ctx.setup));
        break;
      case ExerciseArg::Kind::Output:
        pushArray(slots, d.out.at(i).get(), dtypeSize(ctx.outputs.at(i).dtype()),
                  shapeOf(a, ex, ctx.outputs.at(i), ctx.setup));
        break;
      case ExerciseArg::Kind::Hits:
        pushArray(slots, hits, sizeof(unsigned long long), {1});
        break;
      default: {
        std::uint64_t slot = 0;
        const ExerciseScalar v = scalarArgument(e, ctx.setup);
        static_assert(sizeof v == sizeof slot);
        std::memcpy(&slot, &v, sizeof slot);
        slots.push_back(slot);
      }
    }
  }
  return slots;
}

/// The in-place arrays' loads: each output the kernel updates in place, from its input.
std::vector<OutputFromInput> inPlaceLoads(const Exercise& ex, const std::vector<NumbaArg>& args) {
  std::vector<OutputFromInput> loads;
  for (const NumbaArg& a : args)
    if (a.loadedFrom) loads.push_back({std::size_t(ex.args[a.arg].index), std::size_t(ex.args[*a.loadedFrom].index)});
  return loads;
}

std::string firstError(const NumbaCompileResult& c) {
  for (const auto& d : c.diagnostics)
    if (d.isError()) return formatDiagnostic(d);
  return "Numba gave no kernel";
}

}  // namespace

void runNumbaKernel(ImplContext& ctx, const UserKernel& k, const Exercise& ex) {
  const auto started = std::chrono::steady_clock::now();
  const NumbaCompileResult c =
      compileNumbaKernel(k, ex, archFor(ctx.device->ccMajor, ctx.device->ccMinor), {}, ctx.setup.dtype);
  if (!c.unavailable.empty()) throw Unavailable(c.unavailable);
  if (!c.ok) throw std::runtime_error("does not compile: " + firstError(c));
  const UserLibrary lib(c.cubin);
  const void* kernel = reinterpret_cast<const void*>(lib.kernel(c.loweredName));
  // compile_ms: the cache look-up or Numba's compile, and the driver's JIT of the PTX; numba_compile_ms only when
  // Numba ran (the first compile of this file's content), so the cached runs show what caching saves.
  ctx.metrics["compile_ms"] =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (!c.cached) ctx.metrics["numba_compile_ms"] = c.compileMs;
  const NumbaKernelArgs own = numbaKernelArgs(k.source, ex, ctx.setup.dtype);
  if (!own.error.empty()) throw std::runtime_error(own.error);  // the compile has refused it already
  const std::vector<OutputFromInput> loads = inPlaceLoads(ex, own.args);
  launchUserKernel(
      ctx, ex, kernel, [&](const gpu::DeviceArrays& d, void* hits) { return numbaSlots(ctx, ex, own.args, d, hits); },
      loads);
  for (const auto& l : loads)
    ctx.launchNote += "; in place: " + ctx.outputs[l.output].name() + " is loaded with " + ctx.inputs[l.input].name() +
                      " on the device before each launch (timed with the kernel)";
  ctx.launchNote += "; " + c.arch + " PTX of " + k.fileName + " from Numba (" +
                    (c.cached ? std::string("cached") : "compiled in " + std::to_string(int(c.compileMs)) + " ms") +
                    ")";
}

}  // namespace launchlab::kernels
