// Every registered workload: complete metadata, a chapter of the course, outputs allocated as declared, and the
// byte and FLOP counts the results report.
#include <algorithm>
#include <map>
#include <string>

#include "cpu_impl_checks.h"
#include "launchlab/course/chapters.h"
#include "launchlab/course/lesson.h"

using namespace launchlab;
using namespace launchlab::test;

TEST(Catalog, MetadataIsComplete) {
  for (const auto& w : registry().all()) {
    const auto& i = w->info();
    SCOPED_TRACE(i.id);
    EXPECT_FALSE(i.title.empty());
    EXPECT_FALSE(i.chapter.empty());
    EXPECT_GT(lessonOf(i.id).lookFor.size(), 60u);  // kernels/<id>/lesson.md
    EXPECT_FALSE(i.dtypes.empty());
    EXPECT_FALSE(i.outputs.empty());
    ASSERT_NE(w->findImpl("cpu-serial"), nullptr);
    EXPECT_NE(std::find(i.dtypes.begin(), i.dtypes.end(), i.defaultDType), i.dtypes.end());
    for (const auto& s : w->impls()) {
      EXPECT_FALSE(s.description.empty()) << s.id;
      if (!s.run) {
        EXPECT_FALSE(s.unavailableReason.empty()) << s.id;
      }
    }
  }
}

TEST(Catalog, EveryWorkloadIsInAChapterAndEveryChapterHasAWorkload) {
  std::map<std::string_view, int> perChapter;
  for (std::string_view c : chapters()) perChapter[c] = 0;
  for (const auto& w : registry().all()) {
    const std::string& c = w->info().chapter;
    EXPECT_LT(chapterIndex(c), chapters().size()) << w->info().id << ": '" << c << "' is not a chapter of the course";
    ++perChapter[c];
  }
  EXPECT_EQ(perChapter.size(), chapters().size());
  for (const auto& [c, count] : perChapter) EXPECT_GE(count, 1) << c;
}

TEST(Catalog, ReferenceIsTheCpuSerialKind) {
  for (const auto& w : registry().all()) {
    const ImplSpec* ref = w->findImpl(kCpuSerial);
    ASSERT_NE(ref, nullptr) << w->info().id;
    EXPECT_EQ(ref->kind, ImplKind::CpuSerial) << w->info().id;
    for (const auto& s : w->impls())
      if (s.id != kCpuSerial) {
        EXPECT_NE(s.kind, ImplKind::CpuSerial) << w->info().id << "/" << s.id;
      }
  }
}

namespace {
double bytesOf(const std::vector<HostArray>& arrays) {
  double b = 0;
  for (const auto& a : arrays) b += double(a.bytes());
  return b;
}
}  // namespace

// The byte model must describe what is allocated: makeInputs and makeOutputs give the shapes and dtypes of
// inputShapes, outputShapes and the specs, and hostBytes is their size, computed without allocating.
TEST(Catalog, ArraysAreAllocatedAsDeclaredAndHostBytesIsTheirSize) {
  for (const auto& w : registry().all()) {
    const auto& info = w->info();
    for (DType t : info.dtypes)
      for (std::uint64_t n : {std::min<std::uint64_t>(info.defaultN, 1000), std::uint64_t(4097)}) {
        const RunSetup s = setupFor(info.id, n, t);
        SCOPED_TRACE(info.id + " " + std::string(dtypeName(t)) + " n=" + std::to_string(n));
        if (!w->validate(s).empty()) continue;
        const auto in = w->makeInputs(s), out = w->makeOutputs(s);
        const auto inShapes = w->inputShapes(s), outShapes = w->outputShapes(s);
        ASSERT_EQ(in.size(), info.inputs.size());
        ASSERT_EQ(out.size(), info.outputs.size());
        ASSERT_EQ(outShapes.size(), info.outputs.size());
        for (std::size_t k = 0; k < in.size(); ++k) {
          EXPECT_EQ(in[k].name(), info.inputs[k].name);
          EXPECT_EQ(in[k].shape(), inShapes[k]) << in[k].name();
          EXPECT_EQ(in[k].dtype(), info.inputs[k].dtypeFor(t)) << in[k].name();
        }
        for (std::size_t k = 0; k < out.size(); ++k) {
          EXPECT_EQ(out[k].name(), info.outputs[k].name);
          EXPECT_EQ(out[k].shape(), outShapes[k]) << out[k].name();
          EXPECT_EQ(out[k].dtype(), info.outputs[k].dtypeFor(t)) << out[k].name();
        }
        EXPECT_EQ(w->hostBytes(s), bytesOf(in) + bytesOf(out));
      }
  }
}

// Bytes moved (GB/s) and FLOP (GFLOP/s) of every workload, as they were before the byte model was computed from
// shapes: counts change only on purpose.
TEST(Catalog, ByteAndFlopCounts) {
  struct Row {
    const char* id;
    const char* dtype;
    std::uint64_t n;
    std::map<std::string, std::string> params;
    double bytes, flops;
  };
  const Row rows[] = {
      {"gaussian_pdf", "f32", 4097, {}, 32776, 53261},
      {"gaussian_pdf", "f32", 1ull << 26, {}, 536870912, 872415232},
      {"gaussian_pdf", "f64", 4097, {}, 65552, 53261},
      {"polar_distance", "f32", 4097, {}, 81940, 172074},  // 42 per distance: 4 sin/cos (~8), 10 more
      {"polar_distance", "f32", 1ull << 26, {}, 1342177280, 2818572288},
      {"polar_distance", "f64", 4097, {}, 163880, 172074},
      {"pulse_waveform", "f32", 4097, {}, 65552, 0},
      {"pulse_waveform", "f32", 1ull << 26, {}, 1073741824, 0},
      {"pulse_waveform", "f64", 4097, {}, 131104, 0},
      {"pulse_waveform", "i16", 4097, {}, 81940, 0},       // float64 t and noise in, int16 waveform and result out
      {"nn_hidden_layer", "f32", 4097, {}, 49164, 90134},  // 22 per neuron: 2 exp (~8), 6 more
      {"nn_hidden_layer", "f32", 1ull << 26, {}, 805306368, 1476395008},
      {"nn_hidden_layer", "f64", 4097, {}, 98328, 90134},
      {"l2_norm", "f32", 4097, {}, 49164, 16388},
      {"l2_norm", "f32", 1ull << 26, {}, 805306368, 268435456},
      {"l2_norm", "f32", 4097, {{"d", "7"}}, 131104, 57358},
      {"l2_norm", "f32", 4097, {{"d", "37"}, {"input", "uniform"}}, 622744, 303178},
      {"l2_norm", "f64", 4097, {}, 98328, 16388},
      {"l2_norm", "f64", 4097, {{"d", "7"}}, 262208, 57358},
      {"l2_norm", "f64", 4097, {{"d", "37"}, {"input", "uniform"}}, 1245488, 303178},
      {"vector_add", "f32", 4097, {}, 49164, 4097},
      {"vector_add", "f32", 1ull << 26, {}, 805306368, 67108864},
      {"vector_add", "f64", 4097, {}, 98328, 4097},
      {"vector_add", "i32", 4097, {}, 49164, 0},
      {"vector_add", "i64", 4097, {}, 98328, 0},
      {"square", "i64", 4097, {}, 65552, 0},
      {"square", "i32", 4097, {}, 32776, 0},
      {"square", "f32", 4097, {}, 32776, 4097},
      {"square", "f64", 1ull << 26, {}, 1073741824, 67108864},
      {"hypot", "f32", 4097, {}, 49164, 16388},  // 2 mul, add, sqrt
      {"hypot", "f32", 1ull << 26, {}, 805306368, 268435456},
      {"hypot", "f64", 4097, {}, 98328, 16388},
      {"launch_coverage", "i32", 4097, {}, 16388, 0},
      {"launch_coverage", "i32", 1ull << 26, {}, 268435456, 0},
      {"atomic_counter", "i32", 4097, {}, 0, 0},
      {"atomic_counter", "i32", 1ull << 26, {}, 0, 0},
      {"histogram", "f32", 4097, {}, 16428, 0},
      {"histogram", "f32", 1ull << 26, {}, 268435496, 0},
      {"histogram", "f32", 4097, {{"bins", "256"}}, 17412, 0},
      {"histogram", "f32", 4097, {{"distribution", "uniform"}, {"xmax", "3"}, {"xmin", "-1"}}, 16428, 0},
      {"histogram", "f64", 4097, {}, 32816, 0},
      {"histogram", "f64", 4097, {{"bins", "256"}}, 33800, 0},
      {"histogram", "f64", 4097, {{"distribution", "uniform"}, {"xmax", "3"}, {"xmin", "-1"}}, 32816, 0},
      {"row_normalize", "f32", 4097, {}, 98328, 0},
      {"row_normalize", "f32", 1ull << 26, {}, 1610612736, 0},
      {"row_normalize", "f32", 4097, {{"d", "5"}, {"input", "uniform"}}, 163880, 0},
      {"row_normalize", "f64", 4097, {}, 196656, 0},
      {"row_normalize", "f64", 4097, {{"d", "5"}, {"input", "uniform"}}, 327760, 0},
      {"round_decimals", "f64", 4097, {}, 65552, 0},
      {"round_decimals", "f64", 1ull << 26, {}, 1073741824, 0},
      {"round_decimals", "f32", 4097, {}, 32776, 0},
      {"streams_overlap", "i32", 4097, {}, 32776, 0},  // a read and written once by the increment
      {"streams_overlap", "i32", 16ull << 20, {{"chunks", "4"}}, 134217728, 0},
      {"reduce_sum", "f32", 4097, {}, 16392, 4097},
      {"reduce_sum", "f64", 4097, {}, 32784, 4097},
      {"reduce_sum", "f64", 1ull << 26, {}, 536870920, 67108864},
      {"reduce_sum", "i32", 4097, {}, 16392, 0},
      {"monte_carlo_pi", "f32", 4097, {}, 0, 0},
      {"monte_carlo_pi", "f32", 1ull << 26, {}, 0, 0},
      {"groupby_sum", "f32", 4097, {}, 4097.0 * (8 + 4 * 4 + 8 + 4 * 4), 0},  // inputs + at most one group per row
      {"groupby_sum", "f64", 4097, {}, 4097.0 * (8 + 4 * 8 + 8 + 4 * 8), 0},
      {"monte_carlo_area", "f32", 4097, {}, 0, 0},
      {"quadratic", "f64", 4097, {}, 131104, 36873},
      {"quadratic", "f64", 1ull << 26, {}, 2147483648, 603979776},
      {"quadratic", "f32", 4097, {}, 65552, 36873},
      {"matrix_add_2d", "f32", 31, {{"cols", "33"}}, 12276, 1023},
      {"matrix_add_2d", "f64", 1000, {{"cols", "1003"}}, 24072000, 1003000},
      {"matrix_add_2d", "i32", 4097, {}, 201424908, 0},
      {"transpose", "f32", 31, {{"cols", "33"}}, 8184, 0},
      {"coalescing", "f32", 4097, {}, 49164, 4097},  // useful bytes: a[16i], b[16i], out[i]
      {"coalescing", "f64", 1000, {{"stride", "3"}}, 24000, 1000},
      {"row_col_sums", "f32", 31, {{"cols", "33"}}, 8440, 2046},  // a read twice + 31 + 33 sums
      {"row_col_sums", "f64", 1000, {{"cols", "1003"}}, 16064024, 2006000},
      {"transpose", "f64", 4097, {}, 268566544, 0},
      // A (31 x 17) and B (17 x 33) read, C (31 x 33) written; 2 m n k flops.
      {"matmul", "f32", 31, {{"k", "17"}, {"cols", "33"}}, 8444, 34782},
      {"matmul", "f32", 4096, {}, 201326592, 137438953472},
      // offsets (8 B x 4098), 8869 generated muons x 16 B (pt, eta, phi, charge), masses 4 B x 4097, 120 bins x 4 B.
      {"z_mass", "f32", 4097, {}, 191556, 0},
      {"histogram_contention", "f32", 4097, {}, 21188, 0},  // the masses and 1200 counts
      {"histogram_contention", "f32", 4097, {{"bins", "1"}}, 16392, 0},
  };
  for (const auto& r : rows) {
    const RunSetup s = setupFor(r.id, r.n, *parseDType(r.dtype), r.params);
    SCOPED_TRACE(std::string(r.id) + " " + r.dtype + " n=" + std::to_string(r.n));
    EXPECT_EQ(workload(r.id).bytesMoved(s), r.bytes);
    EXPECT_EQ(workload(r.id).flops(s), r.flops);
  }
}
