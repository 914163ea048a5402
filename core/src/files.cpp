#include "launchlab/io/files.h"

#include <filesystem>
#include <stdexcept>

#include "launchlab/io/npy.h"

namespace launchlab::files {

int saveRunArrays(const RunResult& r, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  int count = 0;
  fs::create_directories(fs::path(dir) / "inputs", ec);
  if (ec) throw std::runtime_error("cannot create " + dir + "/inputs: " + ec.message());
  for (const auto& a : r.inputs) {
    npy::save((fs::path(dir) / "inputs" / (a.name() + ".npy")).string(), a);
    ++count;
  }
  for (const auto& impl : r.impls) {
    if (impl.outputs.empty()) continue;
    fs::create_directories(fs::path(dir) / impl.implId, ec);
    if (ec) throw std::runtime_error("cannot create " + dir + "/" + impl.implId + ": " + ec.message());
    for (const auto& a : impl.outputs) {
      npy::save((fs::path(dir) / impl.implId / (a.name() + ".npy")).string(), a);
      ++count;
    }
  }
  return count;
}

}  // namespace launchlab::files
