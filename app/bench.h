#pragma once
// launchlab-cli bench: the foundation's figures, measured in one run on one machine.
#include <string>

#include "launchlab/engine.h"

struct BenchOptions {
  std::string json;
  bool quick = false;
  int reps = 20;
};

int runBench(launchlab::Engine& engine, const BenchOptions& o);
