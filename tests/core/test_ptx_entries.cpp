// A module's kernels by name and one kernel cut out of it (launchlab/ptx/ptx_instrument.h): how gpu::launch
// (kernels/common/probe_launch.cuh) finds a compiled-in kernel's instrumented twin in its workload's PTX, and
// hands the JIT that kernel alone. Without a GPU: the names the build gave the lesson kernels (cuobjdump's records)
// against the PTX compiled in; the cut modules assemble with ptxas where the toolkit is installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/kernel_resources_data.h"
#include "launchlab/lesson_ptx.h"
#include "launchlab/ptx/ptx_instrument.h"

namespace launchlab {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kModule = R"(//
// a comment with { braces } and ; semicolons
.version 8.0
.target sm_75
.address_size 64

.global .align 4 .b8 table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 	%r<3>;
	ld.param.b32 	%r1, [x];
	add.s32 	%r2, %r1, %r1;
	st.param.b32 	[r], %r2;
	ret;
}
	// .globl	_Z1aPf
.visible .entry _Z1aPf(
	.param .u64 _Z1aPf_param_0
)
{
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [_Z1aPf_param_0];
	/* } a brace in a block comment */
	.loc	1 4 3
	ld.global.f32 	%f1, [%rd1];
	ret;
}
	// .globl	_Z1bPf
.visible .entry _Z1bPf(
	.param .u64 _Z1bPf_param_0
)
.maxntid 256, 1, 1
{
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [_Z1bPf_param_0];
	{
	.loc	1 9 3
	st.global.f32 	[%rd1], %f1;
	}
	ret;
}
	.file	1 "k.cu"
)";

TEST(PtxEntries, NamesTheKernelsOfAModule) {
  EXPECT_EQ(ptx::ptxEntryNames(kModule), (std::vector<std::string>{"_Z1aPf", "_Z1bPf"}));
  EXPECT_TRUE(ptx::ptxEntryNames(".version 8.0\n.target sm_75\n").empty());
}

TEST(PtxEntries, OneKernelCutOutKeepsWhatItNeeds) {
  std::string why;
  const std::string b = ptx::ptxWithOnlyEntry(kModule, "_Z1bPf", &why);
  ASSERT_FALSE(b.empty()) << why;
  EXPECT_EQ(ptx::ptxEntryNames(b), (std::vector<std::string>{"_Z1bPf"}));
  for (std::string_view kept :
       {".version 8.0", ".target sm_75", ".address_size 64", "table[8] = {1, 2, 3, 4, 5, 6, 7, 8};",
        "twice(.param .b32 x)", ".maxntid 256, 1, 1", "st.global.f32", ".file\t1 \"k.cu\""})
    EXPECT_NE(b.find(kept), std::string::npos) << kept;
  EXPECT_EQ(b.find("ld.global.f32"), std::string::npos);
  // The cut module is PTX the pass reads as it reads the whole: the same access, on the same source line.
  const auto inst = ptx::instrumentPtx(b);
  ASSERT_TRUE(inst.ok()) << inst.error;
  ASSERT_EQ(inst.accesses.size(), 1u);
  EXPECT_EQ(inst.accesses[0].line, 9);
  EXPECT_EQ(inst.accesses[0].file, "k.cu");

  EXPECT_TRUE(ptx::ptxWithOnlyEntry(kModule, "_Z1cPf", &why).empty());
  EXPECT_NE(why.find("_Z1cPf"), std::string::npos);
}

TEST(PtxEntries, AKernelIsFoundByItsNameUpToAnonymousNamespaceIds) {
  const std::string anon = "_ZN9launchlab7kernels10coalescing46_GLOBAL__N__27c3f3f1_13_coalescing_cu_9e0bd23a1kIfEEvPf";
  const std::vector<std::string> entries = {"_Z1aPf", anon};
  EXPECT_EQ(ptx::matchingEntry(entries, "_Z1aPf"), "_Z1aPf");
  EXPECT_EQ(ptx::matchingEntry(entries, anon), anon);
  // The id of an anonymous namespace depends on how its file was compiled: nvcc -ptx and the build may differ.
  const std::string other =
      "_ZN9launchlab7kernels10coalescing46_GLOBAL__N__00000000_13_coalescing_cu_ffffffff1kIfEEvPf";
  EXPECT_EQ(ptx::matchingEntry(entries, other), anon);
  EXPECT_EQ(ptx::matchingEntry(entries,
                               "_ZN9launchlab7kernels10coalescing46_GLOBAL__N__00000000_13_coalescing_cu_"
                               "ffffffff1kIdEEvPd"),
            std::nullopt);  // another instantiation
  EXPECT_EQ(ptx::matchingEntry(entries, "_Z1bPf"), std::nullopt);
  // Two files' anonymous namespaces holding a kernel of the same name: ambiguous, not a guess.
  const std::string twin = "_ZN9launchlab7kernels10coalescing46_GLOBAL__N__11111111_13_coalescing_cu_222222221kIfEEvPf";
  EXPECT_EQ(ptx::matchingEntry({anon, twin}, other), std::nullopt);
}

/// The lesson workloads' compiled-in kernels, as the build's cuobjdump records name them (the names the CUDA
/// runtime gives their host stubs): each has its twin in its workload's PTX.
TEST(PtxEntries, EveryCompiledLessonKernelHasItsTwinInTheEmbeddedPtx) {
  const auto workloads = kernels::lessonPtxWorkloads();
  if (workloads.empty()) GTEST_SKIP() << "a build without CUDA embeds no PTX";
  std::string err;
  const auto records = kernelRecordsFromJson(kernels::kernelResourcesJson(), &err);
  ASSERT_TRUE(records) << err;
  int checked = 0;
  for (const auto& w : workloads) {
    const auto entries = ptx::ptxEntryNames(kernels::lessonPtx(w));
    ASSERT_FALSE(entries.empty()) << w;
    std::set<std::string> seen;
    for (const auto& k : *records) {
      if (k.workloadNamespace != w || !seen.insert(k.symbol).second) continue;
      EXPECT_TRUE(ptx::matchingEntry(entries, k.symbol)) << w << ": " << k.symbol;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

/// What the JIT gets for a lesson kernel (coalescing's, the smallest module): each kernel cut out of the
/// instrumented module assembles on its own.
TEST(PtxEntries, EachInstrumentedLessonKernelAssemblesAlone) {
  const auto ptx = kernels::lessonPtx("coalescing");
  if (ptx.empty()) GTEST_SKIP() << "a build without CUDA embeds no PTX";
  const fs::path ptxas = LAUNCHLAB_PTXAS_PATH;
  if (!fs::exists(ptxas)) GTEST_SKIP() << "ptxas not found";
  const auto inst = ptx::instrumentPtx(ptx);
  ASSERT_TRUE(inst.ok()) << inst.error;
  const fs::path dir = fs::temp_directory_path() / ("launchlab_entries_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const auto& entry : inst.kernels) {
    const std::string one = ptx::ptxWithOnlyEntry(inst.ptx, entry);
    ASSERT_FALSE(one.empty()) << entry;
    const fs::path file = dir / "one.ptx";
    std::ofstream(file) << one;
    const std::string cmd = ptxas.string() + " -arch=sm_90 -o " + (dir / "one.cubin").string() + " " + file.string() +
                            " > " + (dir / "log").string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << entry;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace launchlab
