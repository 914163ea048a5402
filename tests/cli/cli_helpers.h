#pragma once
// Running launchlab-cli from a test: its exit code, stdout and stderr; bad input's one-line contract.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "helpers/test_files.h"

namespace launchlab::test {

namespace fs = std::filesystem;

struct Out {
  int code = -1;
  std::string out, err;
};

inline std::string cliPath() {
  const char* env = std::getenv("LAUNCHLAB_CLI");
  return env ? env : LAUNCHLAB_CLI_PATH;
}
/// The kernels/ folder of the source tree (exercise files, solutions).
inline const std::string kKernels = LAUNCHLAB_KERNELS_DIR;

inline fs::path scratch() {
  static fs::path d = [] {
    auto p = fs::temp_directory_path() / ("launchlab_cli_" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

inline Out cli(const std::string& args) {
  const auto o = scratch() / "stdout.txt", e = scratch() / "stderr.txt";
  // Appended rather than "literal" + std::string: GCC 12 warns falsely inside libstdc++ on that form (bug 105329).
  std::string cmd = "'";
  cmd.append(cliPath()).append("' ").append(args).append(" >'").append(o.string()).append("' 2>'");
  cmd.append(e.string()).append("' </dev/null");
  int st = std::system(cmd.c_str());
  Out r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(o);
  r.err = slurp(e);
  return r;
}

inline bool gpuAvailable() {
  auto r = cli("info --json");
  return nlohmann::json::parse(r.out)["device"]["available"].get<bool>();
}

// Bad input: exit code 2 and exactly one line on stderr that contains `needle`.
inline void expectBadInput(const std::string& args, const std::string& needle) {
  SCOPED_TRACE(args);
  Out r = cli(args);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find("terminate"), std::string::npos);
}

}  // namespace launchlab::test
