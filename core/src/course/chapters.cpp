#include "launchlab/course/chapters.h"

#include <algorithm>
#include <array>

namespace launchlab {

namespace {
// Session 3 (seed file 003) teaches random numbers (line 253) before the reduce generator (line 298).
constexpr std::array kCourseOrder = {kChapterUfuncs, kChapterCustomKernels, kChapterAtomics,
                                     kChapterMemory, kChapterPorting,       kChapterStreams,
                                     kChapterRandom, kChapterReduce,        kChapterAtlasPython};
}  // namespace

std::span<const std::string_view> chapters() { return kCourseOrder; }

std::size_t chapterIndex(std::string_view chapter) {
  return std::size_t(std::find(kCourseOrder.begin(), kCourseOrder.end(), chapter) - kCourseOrder.begin());
}

}  // namespace launchlab
