#include "cli_outputs.h"

#include <filesystem>

namespace launchlab::cli {

namespace {

/// Whether two paths name one file: the same inode when both exist, else the same normalized path (an output not
/// written yet is a clash with another output of the same name).
bool sameFile(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return ca == cb;
}

bool isFile(const std::string& path) { return !path.empty() && path != "-"; }

}  // namespace

std::string outputClash(const NamedPaths& outputs, const std::map<std::string, std::string>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [option, path] = outputs[i];
    if (!isFile(path)) continue;
    for (const auto& [name, input] : inputs)
      if (sameFile(path, input)) return option + ": " + path + " is also the input " + name + " (--input " + name + ")";
    for (std::size_t k = 0; k < i; ++k)
      if (isFile(outputs[k].second) && sameFile(path, outputs[k].second))
        return option + ": " + path + " is also " + outputs[k].first;
  }
  return {};
}

}  // namespace launchlab::cli
