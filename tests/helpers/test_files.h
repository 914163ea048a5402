#pragma once
// File helpers the GoogleTest suites share: one copy each, also because a unity build (cmake/LaunchLabUnity.cmake)
// compiles several test files as one, where two files' local helpers of one name would clash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace launchlab::test {

/// A file of tests/data.
inline std::string data(const std::string& f) { return std::string(LAUNCHLAB_TEST_DATA_DIR).append("/").append(f); }

/// A file's bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Writes bytes to p, replacing what was there.
inline void writeFile(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

/// An empty folder of this name under the test's temporary directory (whatever was there is removed).
inline std::filesystem::path freshFolder(const std::string& name) {
  const std::filesystem::path p = std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace launchlab::test
