#include "launchlab/io/files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "launchlab/io/npy.h"

namespace launchlab::files {

void writeAtomic(const std::string& path, std::string_view content) { writeAtomic(path, {content}); }

void writeAtomic(const std::string& path, std::initializer_list<std::string_view> pieces) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw std::runtime_error("cannot write " + path + ": folder " + dir.string() + " does not exist");
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  for (std::string_view content : pieces) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
    }
    p += w;
    left -= std::size_t(w);
  }
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
  ::chmod(tmpl.c_str(), 0644);
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
}

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
