// The build's record of kernel resource usage: cuobjdump's report parsed and demangled, the JSON document, selection
// by implementation and dtype, and the occupancy report built on it (nearest architecture, the CUDA API's answer).
#include <gtest/gtest.h>

#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/explorer/occupancy_report.h"

using namespace launchlab;

namespace {

// The shape of `cuobjdump --dump-resource-usage` on a static library (two members, two architectures; a kernel
// that two objects hold appears twice).
constexpr const char* kReport = R"(
member liblaunchlab_kernels.a:demo.cu.o:

Fatbin elf code:
================
arch = sm_86
code version = [1,8]

Resource usage:
 Common:
  GLOBAL:0
 Function _ZN9launchlab7kernels4demo36_GLOBAL__N__5444cbbb_4_k_cu_284e47749fooKernelIfEEvPKT_PS4_m:
  REG:10 STACK:0 SHARED:1024 LOCAL:0 CONSTANT[0]:376 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _ZN9launchlab7kernels4demo36_GLOBAL__N__5444cbbb_4_k_cu_284e47749fooKernelIdEEvPKT_PS4_m:
  REG:8 STACK:0 SHARED:2048 LOCAL:0 CONSTANT[0]:376 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _ZN9launchlab7kernels4demo36_GLOBAL__N__5444cbbb_4_k_cu_284e47749barKernelEPf:
  REG:40 STACK:16 SHARED:0 LOCAL:8 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0

Fatbin ptx code:
================
arch = sm_90

Fatbin elf code:
================
arch = sm_90

Resource usage:
 Function _ZN9launchlab7kernels4demo36_GLOBAL__N__5444cbbb_4_k_cu_284e47749barKernelEPf:
  REG:48 STACK:0 SHARED:1024 LOCAL:0 CONSTANT[0]:536 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function _ZN3cub6detail11EmptyKernelIvEEvv:
  REG:4 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:352 TEXTURE:0 SURFACE:0 SAMPLER:0

member liblaunchlab_kernels.a:other.cu.o:

Fatbin elf code:
================
arch = sm_90

Resource usage:
 Function _ZN9launchlab7kernels4demo36_GLOBAL__N__5444cbbb_4_k_cu_284e47749barKernelEPf:
  REG:48 STACK:0 SHARED:1024 LOCAL:0 CONSTANT[0]:536 TEXTURE:0 SURFACE:0 SAMPLER:0
)";

const KernelRecord* byName(const std::vector<KernelRecord>& v, const std::string& arch, const std::string& name) {
  for (const auto& k : v)
    if (k.arch == arch && k.name == name) return &k;
  return nullptr;
}

}  // namespace

TEST(KernelResources, ParsesCuobjdumpsReportPerArchitectureOnce) {
  const auto v = parseResourceUsage(kReport);
  ASSERT_EQ(v.size(), 5u);  // 3 on sm_86, barKernel and cub's on sm_90 (the second object's copy dropped)
  const KernelRecord* foo = byName(v, "sm_86", "launchlab::kernels::demo::fooKernel<float>");
  ASSERT_TRUE(foo);
  EXPECT_EQ(foo->workloadNamespace, "demo");
  EXPECT_EQ(foo->function, "fooKernel");
  EXPECT_EQ(foo->templateArgs, "float");
  EXPECT_EQ(foo->qualified(), "demo::fooKernel");
  EXPECT_EQ(foo->resources.registersPerThread, 10);
  EXPECT_EQ(foo->resources.staticSharedBytes, 1024u);
  const KernelRecord* bar = byName(v, "sm_86", "launchlab::kernels::demo::barKernel");
  ASSERT_TRUE(bar);
  EXPECT_EQ(bar->templateArgs, "");
  EXPECT_EQ(bar->resources.localBytesPerThread, 24u);  // stack + local
  EXPECT_EQ(byName(v, "sm_90", "launchlab::kernels::demo::barKernel")->resources.registersPerThread, 48);
  const KernelRecord* cub = byName(v, "sm_90", "cub::detail::EmptyKernel<void>");
  ASSERT_TRUE(cub);
  EXPECT_EQ(cub->workloadNamespace, "");
  EXPECT_EQ(recordedArchs(v), (std::vector<std::string>{"sm_86", "sm_90"}));
}

TEST(KernelResources, SplitsNestedTemplateArguments) {
  KernelRecord k;
  splitKernelName(
      "void launchlab::kernels::reduce_sum::(anonymous namespace)::treeKernel<float, true>(float const*, "
      "unsigned long, float*)",
      k);
  EXPECT_EQ(k.name, "launchlab::kernels::reduce_sum::treeKernel<float, true>");
  EXPECT_EQ(k.function, "treeKernel");
  EXPECT_EQ(k.templateArgs, "float, true");
  splitKernelName("launchlab::kernels::m::k<Vec<float, 4>>(int)", k);
  EXPECT_EQ(k.templateArgs, "Vec<float, 4>");
  EXPECT_EQ(k.workloadNamespace, "m");
  EXPECT_EQ(demangle("not_a_symbol"), "not_a_symbol");
}

// The block-trace switch is an implementation detail: people read the kernel and its dtype, and "(traced)".
TEST(KernelResources, DisplayNamesLeaveTheTraceSwitchOut) {
  KernelRecord k;
  splitKernelName(
      "void launchlab::kernels::vector_add::addOnePerThreadKernel<float, launchlab::gpu::BlockTraceOff>("
      "float const*, float const*, float*, unsigned long)",
      k);
  EXPECT_EQ(k.displayName(), "vector_add::addOnePerThreadKernel<float>");
  splitKernelName(
      "void launchlab::kernels::vector_add::addOnePerThreadKernel<double, launchlab::gpu::BlockTraceOn>("
      "double const*, double const*, double*, unsigned long)",
      k);
  EXPECT_EQ(k.displayName(), "vector_add::addOnePerThreadKernel<double> (traced)");
  splitKernelName("void launchlab::kernels::reduce_sum::treeKernel<float, true>(float const*)", k);
  EXPECT_EQ(k.displayName(), "reduce_sum::treeKernel<float, true>");
  splitKernelName("void launchlab::kernels::square::squareKernel(long const*)", k);
  EXPECT_EQ(k.displayName(), "square::squareKernel");
}

TEST(KernelResources, JsonRoundTripAndErrors) {
  const auto v = parseResourceUsage(kReport);
  const std::string text = kernelRecordsJson(v, "test");
  EXPECT_NE(text.find("\"schema\": \"launchlab.kernel_resources\""), std::string::npos);
  auto back = kernelRecordsFromJson(text);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, v);
  std::string err;
  EXPECT_FALSE(kernelRecordsFromJson("{\"schema\": \"other\"}", &err));
  EXPECT_NE(err.find("not a launchlab.kernel_resources document"), std::string::npos);
  EXPECT_FALSE(kernelRecordsFromJson("{", &err));
}

TEST(KernelResources, SelectsAnImplementationsKernelsForItsDType) {
  const auto v = parseResourceUsage(kReport);
  auto named = selectKernels(v, "sm_86", "demo", {"demo::fooKernel"}, DType::F64);
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].templateArgs, "double");
  // No names: every kernel of the namespace; plain functions stay whatever the dtype.
  auto all = selectKernels(v, "sm_86", "demo", {}, DType::F32);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].function, "barKernel");
  EXPECT_EQ(all[1].templateArgs, "float");
  // A dtype no template is instantiated for keeps every instantiation.
  EXPECT_EQ(selectKernels(v, "sm_86", "demo", {"demo::fooKernel"}, DType::I16).size(), 2u);
  EXPECT_TRUE(selectKernels(v, "sm_75", "demo", {}, std::nullopt).empty());
}

TEST(KernelResources, LeavesTheBlockTracedInstantiationsOut) {
  KernelRecord plain{.arch = "sm_90",
                     .workloadNamespace = "demo",
                     .function = "fooKernel",
                     .templateArgs = "float, launchlab::gpu::BlockTraceOff"};
  KernelRecord traced = plain;
  traced.templateArgs = "float, launchlab::gpu::BlockTraceOn";
  const auto v = selectKernels({plain, traced}, "sm_90", "demo", {"demo::fooKernel"}, DType::F32);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].templateArgs, "float, launchlab::gpu::BlockTraceOff");
}

TEST(OccupancyReport, UsesTheNearestRecordedArchitectureAndSaysSo) {
  const auto v = parseResourceUsage(kReport);
  WorkloadInfo w;
  w.id = "demo";
  ImplSpec impl;
  impl.id = "cuda-bar";
  impl.kind = ImplKind::Cuda;
  impl.kernels = {"demo::barKernel"};
  // sm_89 has no records: sm_86's (below it) are used. 40 registers, 256 threads on sm_89: a quarter of the
  // register file holds 12 warps -> 48 = 6 blocks of 8 warps, all 48 warp slots: 100%.
  const auto rep = occupancyReport(w, impl, v, *findArchProfile("sm_89"), true, {Dim3{256, 1, 1}, Dim3{96, 1, 1}},
                                   GridChoice{std::nullopt, 1 << 20}, DType::F32);
  EXPECT_EQ(rep.label, "theoretical (profile sm_89, GPU NVIDIA GeForce RTX 4090)");
  EXPECT_EQ(rep.resourcesArch, "sm_86");
  ASSERT_EQ(rep.rows.size(), 2u);
  EXPECT_EQ(rep.notes.front(), "no resource usage recorded for sm_89: sm_86's is used (registers may differ)");
  EXPECT_EQ(rep.rows[0].occupancy.blocksPerSm, 6);
  EXPECT_EQ(rep.rows[0].gridBlocks, 4096u);  // ceil(2^20 / 256)
  EXPECT_EQ(rep.rows[0].waves.perWave, 6u * 128);
  // 96 threads: 3 warps; 48 / 3 = 16 blocks by registers and by warps, 24 allowed: 16 blocks, 100%.
  EXPECT_EQ(rep.rows[1].occupancy.blocksPerSm, 16);
  const std::string json = occupancyReportJson(rep);
  EXPECT_NE(json.find("\"schema\": \"launchlab.occupancy\""), std::string::npos);
  EXPECT_NE(json.find("\"blocks_per_sm\": 6"), std::string::npos);
}

TEST(OccupancyReport, TheCudaApisAnswerJoinsItsRowWithTheLaunchedGridAndDynamicSharedMemory) {
  const auto v = parseResourceUsage(kReport);
  WorkloadInfo w;
  w.id = "demo";
  ImplSpec impl;
  impl.id = "cuda-bar";
  auto rep = occupancyReport(w, impl, v, *findArchProfile("sm_90"), false, {Dim3{256, 1, 1}},
                             GridChoice{Dim3{1000, 1, 1}, 0}, std::nullopt);
  ASSERT_EQ(rep.rows.size(), 1u);  // only barKernel was recorded for sm_90 in namespace demo
  EXPECT_EQ(rep.label, "NVIDIA H100 SXM5 (sm_90)");
  // 48 registers: 1536 per warp, 10 warps per quarter = 40 warps = 5 blocks of 8.
  EXPECT_EQ(rep.rows[0].occupancy.blocksPerSm, 5);
  ApiOccupancy api{.symbol = rep.rows[0].kernel.symbol,
                   .threadsPerBlock = 256,
                   .dynamicSharedBytes = 100000,
                   .gridBlocks = 264,
                   .blocksPerSm = 2};
  api.resources.registersPerThread = 48;
  attachApiOccupancy(rep, {api});
  ASSERT_TRUE(rep.rows[0].api);
  // 1024 static + 100000 dynamic + 1024 reserved = 102048, rounded to 128: 102144; 233472 / 102144 = 2 blocks.
  EXPECT_EQ(rep.rows[0].occupancy.blocksPerSm, 2);
  EXPECT_EQ(rep.rows[0].gridBlocks, 264u);
  EXPECT_EQ(rep.rows[0].waves.full, 1u);
  EXPECT_NE(occupancyReportJson(rep).find("\"agrees\": true"), std::string::npos);
}
