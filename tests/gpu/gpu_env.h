#pragma once
// The GPU suite's shared engine: every registered workload and the default GPU runtime, made once per process.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"

namespace launchlab::test {

struct GpuEnv {
  Registry registry;
  std::unique_ptr<Engine> engine;
  GpuEnv() {
    kernels::registerAllWorkloads(registry);
    engine = std::make_unique<Engine>(registry, kernels::makeDefaultGpuRuntime());
  }
};

/// The coalescing lesson's run at `stride` (4 Mi f32 elements): the counters' textbook case.
inline RunRequest coalescingRequest(int stride) {
  RunRequest r;
  r.workload = "coalescing";
  r.n = 1 << 22;
  r.dtype = DType::F32;
  r.params = {{"stride", std::to_string(stride)}};
  return r;
}

inline GpuEnv& gpuEnv() {
  static GpuEnv e;
  return e;
}

/// The GPU suite's seed: $LAUNCHLAB_TEST_SEED when set (to replay a failure), else a fresh one; printed once, so
/// a failing run can be replayed whole.
inline std::uint64_t suiteSeed() {
  static const std::uint64_t seed = [] {
    const char* e = std::getenv("LAUNCHLAB_TEST_SEED");
    std::uint64_t s = 0;
    if (e && *e)
      s = std::strtoull(e, nullptr, 10);
    else {
      std::random_device rd;
      s = (std::uint64_t(rd()) << 32) ^ rd();
    }
    std::printf("GPU suite seed %llu: LAUNCHLAB_TEST_SEED=%llu replays this run\n", static_cast<unsigned long long>(s),
                static_cast<unsigned long long>(s));
    return s;
  }();
  return seed;
}

/// The seed of one case, from the suite's seed and the case's name (so a filter or another order of tests gives a
/// case the same inputs). Below 2^63: `launchlab-cli run --seed` takes it, to replay one case alone.
inline std::uint64_t caseSeed(const std::string& name) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a of the name
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  std::uint64_t z = suiteSeed() ^ h;  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (z ^ (z >> 31)) >> 1;
}

/// This test binary's path (`--worker` makes it serve runs, for the tests that need a second process).
inline std::string selfExe() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

}  // namespace launchlab::test
