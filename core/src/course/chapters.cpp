#include "launchlab/chapters.h"

#include <algorithm>
#include <array>

namespace launchlab {

namespace {
constexpr std::array kCourseOrder = {kChapterUfuncs, kChapterCustomKernels, kChapterAtomics,
                                     kChapterMemory, kChapterPorting,       kChapterStreams,
                                     kChapterReduce, kChapterRandom,        kChapterAtlasPython};
}  // namespace

std::span<const std::string_view> chapters() { return kCourseOrder; }

std::size_t chapterIndex(std::string_view chapter) {
  return std::size_t(std::find(kCourseOrder.begin(), kCourseOrder.end(), chapter) - kCourseOrder.begin());
}

}  // namespace launchlab
