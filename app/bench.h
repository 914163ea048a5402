#pragma once
// launchlab-cli bench: the foundation's figures, measured in one run on one machine.
#include <string>
#include <vector>

#include "launchlab/engine/engine.h"

struct BenchOptions {
  std::string json;
  bool quick = false;
  int reps = 20;
  std::vector<std::string> sections;  ///< empty: all of kBenchSections
};

/// The parts of the bench, in the order they run (`--section`); every GPU part measures the cudaMemcpy ceiling first.
inline constexpr const char* kBenchSections[] = {"host",         "foundation", "memory",    "coalescing",
                                                 "row_col_sums", "matmul",     "mandelbrot"};
/// "" when every name is a section, else one line naming the unknown one and the known ones.
std::string checkBenchSections(const std::vector<std::string>& sections);

int runBench(launchlab::Engine& engine, const BenchOptions& o);
