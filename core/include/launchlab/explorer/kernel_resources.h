#pragma once
/// Every CUDA kernel's resource usage as the build recorded it (`cuobjdump --dump-resource-usage` of the kernels
/// library, per architecture built), so occupancy works on a machine without a GPU. The document is JSON (schema
/// "launchlab.kernel_resources"); CUDA builds generate it, CPU-only builds use the copy in resources/.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/dtype.h"
#include "launchlab/explorer/occupancy.h"

namespace launchlab {

struct KernelRecord {
  std::string arch;               ///< "sm_90"
  std::string symbol;             ///< the mangled name
  std::string name;               ///< demangled, parameters dropped: "launchlab::kernels::vector_add::addKernel<float>"
  std::string workloadNamespace;  ///< the namespace under launchlab::kernels: "vector_add" ("" outside it)
  std::string function;           ///< "addKernel"
  std::string templateArgs;       ///< "float" ("" for a plain function)
  KernelResources resources;      ///< registers, static shared memory, local (stack + local) bytes per thread
  std::string qualified() const { return workloadNamespace + "::" + function; }
  /// What people read: "vector_add::addOnePerThreadKernel<float>". The block-trace switch every traced kernel takes
  /// as its last template argument is left out ("<float, launchlab::gpu::BlockTraceOff>" is the untraced kernel;
  /// a traced one reads "<float> (traced)").
  std::string displayName() const;
  bool operator==(const KernelRecord&) const = default;
};

/// The records of a `cuobjdump --dump-resource-usage` report (one per architecture and kernel; a kernel that
/// several objects hold is kept once). Names are demangled; kernels outside launchlab::kernels are kept too.
std::vector<KernelRecord> parseResourceUsage(std::string_view cuobjdumpText);
/// A demangled kernel name split: "void launchlab::kernels::w::(anonymous namespace)::k<float>(float const*)" ->
/// namespace "w", function "k", template arguments "float", name without the parameters and anonymous namespaces.
void splitKernelName(const std::string& demangled, KernelRecord& into);
/// "_ZN…" -> "launchlab::kernels::…"; the symbol itself when it does not demangle.
std::string demangle(const std::string& symbol);

std::string kernelRecordsJson(const std::vector<KernelRecord>& records, const std::string& source);
/// nullopt with the reason when the text is not such a document.
std::optional<std::vector<KernelRecord>> kernelRecordsFromJson(std::string_view text, std::string* error = nullptr);

/// The C++ type a dtype's kernels are instantiated with ("float", "double", "short", "int", "long").
std::string_view kernelTypeName(DType t);

/// The records of one architecture for the kernels `qualifiedNames` ("vector_add::addKernel"), or, when that list
/// is empty, every kernel of `workloadNamespace`; instantiations for `dtype` when there are any, never the
/// block-traced ones (template argument launchlab::gpu::BlockTraceOn). Sorted by name.
std::vector<KernelRecord> selectKernels(const std::vector<KernelRecord>& all, const std::string& arch,
                                        const std::string& workloadNamespace,
                                        const std::vector<std::string>& qualifiedNames, std::optional<DType> dtype);
/// The architectures the records cover, in order ("sm_75", …).
std::vector<std::string> recordedArchs(const std::vector<KernelRecord>& all);

}  // namespace launchlab
