// Loading CUPTI's libraries and naming kernels: no CUDA needed, so CPU-only builds and the tests use it too.
#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdlib>
#include <memory>

#include "launchlab/profiler/cupti_profiler.h"

namespace launchlab::profiler {

CounterError loadCuptiLibraries(const CuptiLibraryNames& names) {
  // The libnvperf libraries first: libcupti loads them only when profiling starts, and then says only that it failed.
  for (const std::string* file : {&names.nvperfHost, &names.nvperfTarget, &names.cupti})
    if (!dlopen(file->c_str(), RTLD_NOW | RTLD_GLOBAL)) return {CounterErrorKind::LibraryMissing, *file};
  return {};
}

std::string kernelLabel(const std::string& rangeName) {
  std::string name = rangeName;
  if (name.rfind("_Z", 0) == 0) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                     std::free);
    if (status == 0 && demangled) name = demangled.get();
  }
  // Cut the parameter list: the first '(' outside template brackets.
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<')
      ++depth;
    else if (name[i] == '>')
      --depth;
    else if (name[i] == '(' && depth == 0) {
      name.resize(i);
      break;
    }
  }
  for (const std::string prefix : {"void ", "launchlab::kernels::"})
    if (const auto at = name.find(prefix); at != std::string::npos && (prefix != "void " || at == 0))
      name.erase(at, prefix.size());
  return name;
}

}  // namespace launchlab::profiler
