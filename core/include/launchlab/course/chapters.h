#pragma once
/// The course's chapters, in course order: every workload's WorkloadInfo::chapter is one of these.
#include <cstddef>
#include <span>
#include <string_view>

namespace launchlab {

inline constexpr std::string_view kChapterUfuncs = "TP 3.1 — GPU ufuncs";
inline constexpr std::string_view kChapterCustomKernels = "TP 3.2 — Custom CUDA kernels";
inline constexpr std::string_view kChapterAtomics = "TP 3.2 — Atomics and races";
inline constexpr std::string_view kChapterMemory = "Spanish notes (001) — Memory: coalescing, 2-D grids, shared memory";
inline constexpr std::string_view kChapterPorting = "Session 3 — Porting and CUDA utilities";
inline constexpr std::string_view kChapterStreams = "Session 3 — Streams and events";
inline constexpr std::string_view kChapterReduce = "Session 3 — Reduce generation";
inline constexpr std::string_view kChapterRandom = "Session 3 — Random number generation";
inline constexpr std::string_view kChapterAtlasPython = "ATLAS — Python tools for CUDA";

/// Every chapter above, in the order the course teaches them.
std::span<const std::string_view> chapters();
/// Position of `chapter` in chapters() (for sorting by course order); chapters().size() when it is not a chapter.
std::size_t chapterIndex(std::string_view chapter);

}  // namespace launchlab
