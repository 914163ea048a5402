// The instrumenting pass on real compiler output: NVRTC's PTX of every exercise's starting file and reference
// solution. Every access is counted or named, and every instrumented module assembles with ptxas. CI assembles for
// sm_75 and sm_90 (the oldest and the newest architecture the probes target); LAUNCHLAB_PTX_ALL_ARCHS=1 adds sm_80
// and sm_86. Needs NVRTC and ptxas (the CUDA toolkit), no GPU; skipped without them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "launchlab/course/exercise.h"
#include "launchlab/course/nvrtc.h"
#include "launchlab/ptx/ptx_instrument.h"

namespace launchlab::ptx {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> archsToAssemble() {
  const char* all = std::getenv("LAUNCHLAB_PTX_ALL_ARCHS");
  if (all && std::string(all) == "1") return {"sm_75", "sm_80", "sm_86", "sm_90"};
  return {"sm_75", "sm_90"};
}

TEST(PtxCorpus, EveryExerciseInstrumentsAndAssembles) {
  if (const auto why = nvrtcUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
  const fs::path ptxas = LAUNCHLAB_PTXAS_PATH;
  if (!fs::exists(ptxas)) GTEST_SKIP() << "ptxas not found";
  const fs::path dir = fs::temp_directory_path() / ("launchlab_ptx_corpus_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  int modules = 0, counted = 0;
  for (const auto& ex : exercises()) {
    for (const bool solution : {false, true}) {
      UserKernel k{ex.id, exerciseFile(ex, solution), std::string(exerciseText(ex, solution)), "", 10};
      if (k.source.empty()) continue;
      const auto compiled = compileUserKernelToPtx(k, ex, "sm_75");
      ASSERT_TRUE(compiled.ok) << k.fileName << ": " << compiled.unavailable << compiled.log;
      const auto inst = instrumentPtx(compiled.ptx);
      ASSERT_TRUE(inst.ok()) << k.fileName << ": " << inst.error;
      if (solution) {  // a starting file's kernel may be empty
        EXPECT_GT(inst.records, 0) << k.fileName;
      }
      for (const auto& a : inst.accesses) {
        EXPECT_TRUE(a.instrumented() || !a.reason.empty()) << k.fileName << ": " << describeAccess(a);
        EXPECT_GT(a.line, 0) << k.fileName << ": " << describeAccess(a);
        counted += a.instrumented();
      }
      std::ofstream(dir / (ex.id + (solution ? "_solution" : "") + ".ptx")) << inst.ptx;
      ++modules;
    }
  }
  EXPECT_GE(modules, 20);
  EXPECT_GT(counted, modules);
  for (const auto& arch : archsToAssemble()) {
    const auto log = dir / ("ptxas_" + arch + ".log");
    const std::string cmd = "ls " + dir.string() + "/*.ptx | xargs -P2 -n1 " + ptxas.string() + " -arch=" + arch +
                            " -o /dev/null > " + log.string() + " 2>&1";
    const int rc = std::system(cmd.c_str());
    std::stringstream text;
    text << std::ifstream(log).rdbuf();
    EXPECT_EQ(rc, 0) << arch << ":\n" << text.str();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace launchlab::ptx
