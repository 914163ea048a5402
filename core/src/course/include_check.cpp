#include "include_check.h"

#include <sys/stat.h>

#include <filesystem>

namespace launchlab {

namespace {

/// The file an #include line names ("" when the line is not one).
std::string includedName(std::string_view line) {
  auto skipBlanks = [&] {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  };
  skipBlanks();
  if (line.empty() || line.front() != '#') return {};
  line.remove_prefix(1);
  skipBlanks();
  if (line.substr(0, 7) != "include") return {};
  line.remove_prefix(7);
  skipBlanks();
  if (line.empty() || (line.front() != '"' && line.front() != '<')) return {};
  const char close = line.front() == '"' ? '"' : '>';
  const std::size_t end = line.find(close, 1);
  return end == std::string_view::npos ? std::string() : std::string(line.substr(1, end - 1));
}

bool existsButNotRegular(const std::filesystem::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

}  // namespace

Diagnostic refusedInclude(std::string_view source, const std::string& fileName) {
  const std::filesystem::path beside = std::filesystem::path(fileName).parent_path();
  int lineNo = 0;
  for (std::size_t at = 0; at <= source.size(); ++lineNo) {
    const std::size_t end = std::min(source.find('\n', at), source.size());
    const std::string name = includedName(source.substr(at, end - at));
    at = end + 1;
    if (name.empty()) continue;
    if (existsButNotRegular(name) || (!beside.empty() && existsButNotRegular(beside / name)))
      return {fileName, lineNo + 1, 0, "error",
              "#include \"" + name + "\" is not a regular file (a pipe or a device): the compiler would wait on it"};
  }
  return {};
}

}  // namespace launchlab
