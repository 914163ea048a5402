// launchlab-kernel-resources: the build step that records every kernel's resource usage. Reads the report of
// `cuobjdump --dump-resource-usage` of the kernels library and writes the JSON document (kernel_resources.h) the
// CLI and the window embed. Exit 0 ok, 2 bad input (one line on stderr).
#include <fstream>
#include <iostream>
#include <sstream>

#include "launchlab/explorer/kernel_resources.h"
#include "launchlab/files/atomic_file.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: launchlab-kernel-resources CUOBJDUMP_REPORT.txt OUT.json\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "launchlab-kernel-resources: cannot read " << argv[1] << "\n";
    return 2;
  }
  std::ostringstream text;
  text << in.rdbuf();
  // The course's kernels only: a library's (CUB's, behind reduce_sum's library row) are not the lesson.
  auto records = launchlab::parseResourceUsage(text.str());
  std::erase_if(records, [](const launchlab::KernelRecord& k) { return k.workloadNamespace.empty(); });
  if (records.empty()) {
    std::cerr << "launchlab-kernel-resources: no kernel in " << argv[1] << " (not a cuobjdump resource report?)\n";
    return 2;
  }
  launchlab::files::writeAtomic(argv[2],
                                launchlab::kernelRecordsJson(records, "cuobjdump --dump-resource-usage") + "\n");
  std::cerr << "recorded " << records.size() << " kernels (" << launchlab::recordedArchs(records).size()
            << " architectures) in " << argv[2] << "\n";
  return 0;
}
