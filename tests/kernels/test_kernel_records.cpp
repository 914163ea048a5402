// The kernel resource usage built into the binaries (kernels::kernelResourcesJson): it reads, covers the
// architectures the CMake default builds, and every kernel an implementation names was recorded.
#include <gtest/gtest.h>

#include <set>

#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/kernel_resources_data.h"
#include "launchlab/kernels.h"

using namespace launchlab;

TEST(KernelRecords, EveryNamedKernelWasRecordedOnEveryArchitecture) {
  std::string err;
  const auto records = kernelRecordsFromJson(kernels::kernelResourcesJson(), &err);
  ASSERT_TRUE(records) << err;
  const auto archs = recordedArchs(*records);
  // The committed copy covers the CMake default's architectures; a record this build made covers those it built
  // (e.g. only sm_90 with LAUNCHLAB_CUDA_ARCHS=90).
  if (kernels::kernelResourcesJsonOrigin() == "resources/kernel_resources.json")
    EXPECT_EQ(archs, (std::vector<std::string>{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}))
        << "regenerate resources/kernel_resources.json (docs/ARCHITECTURE.md, Occupancy)";
  else
    EXPECT_FALSE(archs.empty()) << kernels::kernelResourcesJsonOrigin();
  Registry reg;
  kernels::registerAllWorkloads(reg);
  int named = 0;
  std::set<std::string> namespaces;
  for (const auto& id : reg.ids())
    for (const auto& impl : reg.find(id)->impls())
      for (const auto& k : impl.kernels) {
        ++named;
        namespaces.insert(k.substr(0, k.find("::")));
        for (const auto& arch : archs)
          EXPECT_FALSE(selectKernels(*records, arch, "", {k}, std::nullopt).empty())
              << id << "/" << impl.id << ": " << k << " on " << arch;
      }
  EXPECT_GE(named, 20);
  // Every recorded kernel lives in a workload's namespace (hypot's is hypot_workload).
  for (const auto& k : *records)
    EXPECT_TRUE(reg.find(k.workloadNamespace) || namespaces.count(k.workloadNamespace)) << k.name;
}
