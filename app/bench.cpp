#include "bench.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "launchlab/engine/request.h"
#include "launchlab/explorer/sweep.h"
#include "launchlab/files/files.h"
#include "launchlab/files/json_value.h"

using namespace launchlab;
using nlohmann::ordered_json;

namespace {

/// One run through the shared request parser (as the CLI's `run` would make it).
RunResult runOne(Engine& e, const std::string& workload, std::uint64_t n, const std::string& impls, int reps,
                 const std::string& block = "auto", const std::string& grid = "auto",
                 const std::map<std::string, std::string>& params = {}) {
  RequestText t;
  t.workload = workload;
  t.n = std::to_string(n);
  t.dtype = "f32";
  t.impls = impls;
  t.reps = std::to_string(reps);
  t.warmup = "3";
  t.block = block;
  t.grid = grid;
  t.params = params;
  ParsedRequest p = parseRequest(t);
  if (!p.ok()) throw std::invalid_argument(p.problems.front().message);
  return e.run(p.request);
}

/// A block-size sweep of one implementation through the core sweep (the window's and `launchlab-cli sweep`'s).
void sweepBlocks(Engine& e, const std::string& workload, std::uint64_t n, const std::string& impl, int reps,
                 const std::vector<std::string>& blocks, const std::function<void(const RunResult&)>& each) {
  SweepPlan plan;
  plan.base.workload = workload;
  plan.base.n = std::to_string(n);
  plan.base.dtype = "f32";
  plan.base.impls = impl;
  plan.base.reps = std::to_string(reps);
  plan.base.warmup = "3";
  plan.axes = {{"block", blocks}};
  std::vector<RequestProblem> problems;
  const auto cells = expandSweep(
      plan, [&](const RunRequest& r) { return e.validate(r); }, problems);
  if (!problems.empty()) throw std::invalid_argument(problems.front().message);
  SweepCallback sink([&](std::size_t, const SweepPoint&, const RunResult& r) { each(r); });
  runSweep(plan, cells, [&](const RunRequest& r, const CancelToken* c, const ProgressFn& p) { return e.run(r, c, p); },
           {&sink});
}

ordered_json implJson(const ImplResult& i) {
  ordered_json j;
  j["impl"] = i.implId;
  j["status"] = statusName(i.status);
  if (!i.reason.empty()) j["reason"] = i.reason;
  if (i.launch) j["launch"] = formatDim3(i.launch->grid) + " x " + formatDim3(i.launch->block);
  j["kernel_or_cpu_median_ms"] = i.computeMedianMs();
  j["bandwidth_gbs"] = i.bandwidthGBs;
  if (i.gflops > 0) j["gflops"] = i.gflops;
  j["verification"] = outcomeName(i.verification.outcome);
  return j;
}

void line(const char* fmt, double a, double b = 0, double c = 0, double d = 0, double e = 0) {
  std::printf(fmt, a, b, c, d, e);
  std::printf("\n");
}

/// The best verified GPU bandwidth of `ids` in `r`, every GPU row added to `rows`; `ok` falls on a failure.
double bestGBs(const RunResult& r, ordered_json& rows, bool& ok, std::string* bestId = nullptr) {
  double best = 0;
  for (const auto& i : r.impls) {
    if (!i.gpu) continue;
    rows.push_back(implJson(i));
    const bool good = i.status == Status::Ok && (i.verification.passed() || i.demonstration);
    ok = ok && good;
    if (good && i.bandwidthGBs > best) {
      best = i.bandwidthGBs;
      if (bestId) *bestId = i.implId;
    }
  }
  return best;
}

/// The memory chapter's figures, each a ratio to a ceiling measured in this run: the padded transpose tile against
/// cudaMemcpy D2D of the same bytes (8192^2 f32: 256 MiB each way; the 1 GiB copy's ratio beside it) and the
/// coalesced 2-D matrix addition against vector_add's best at 2^26 elements.
void memoryFigures(Engine& engine, bool quick, int reps, double copy, ordered_json& root, bool& ok) {
  const std::uint64_t side = quick ? 1024 : 8192;
  ordered_json tr = ordered_json::array();
  const RunResult t =
      runOne(engine, "transpose", side, "cuda-naive,cuda-tile,cuda-tile-padded,cuda-tile-padded-64", reps);
  bestGBs(t, tr, ok);
  double paddedGBs = 0;  // the better padded tile ([32][33] or [64][65])
  std::string paddedId;
  for (const char* id : {"cuda-tile-padded", "cuda-tile-padded-64"})
    if (const ImplResult* p = t.find(id); p && p->bandwidthGBs > paddedGBs) {
      paddedGBs = p->bandwidthGBs;
      paddedId = id;
    }
  // A copy of the matrix's own bytes moves what the transpose moves, with the same start and tail per byte; the
  // 1 GiB copy spreads those over 4x the bytes (4 % faster on the H200: PERFORMANCE.md).
  const double same = engine.gpu().measureCopyBandwidthGBs(std::size_t(side) * side * sizeof(float), reps);
  root["transpose_f32"] = {{"rows", side},
                           {"cols", side},
                           {"runs", tr},
                           {"padded_best", paddedId},
                           {"padded_gbs", paddedGBs},
                           {"memcpy_same_bytes_gbs", same},
                           {"ratio_to_memcpy_same_bytes", paddedGBs / same},
                           {"ratio_to_memcpy", paddedGBs / copy},
                           {"target_ratio", 0.95}};
  line(
      "transpose f32 %.0f^2: best padded tile %.1f GB/s = %.3fx of cudaMemcpy of the same bytes (%.1f GB/s; target "
      ">= 0.95), %.3fx of the 1 GiB copy",
      double(side), paddedGBs, paddedGBs / same, same, paddedGBs / copy);

  ordered_json ma = ordered_json::array(), va = ordered_json::array();
  const RunResult m =
      runOne(engine, "matrix_add_2d", side, "cuda-coalesced,cuda-coalesced-vec16,cuda-uncoalesced", reps);
  bestGBs(m, ma, ok);
  double coGBs = 0;  // the better coalesced kernel (scalar or 16-byte accesses)
  for (const char* id : {"cuda-coalesced", "cuda-coalesced-vec16"})
    if (const ImplResult* co = m.find(id)) coGBs = std::max(coGBs, co->bandwidthGBs);
  std::string vaBest;
  const double vaGBs =
      bestGBs(runOne(engine, "vector_add", side * side, "cuda-one-per-thread,cuda-grid-stride,cuda-vectorized", reps),
              va, ok, &vaBest);
  root["matrix_add_2d_f32"] = {{"rows", side},
                               {"cols", side},
                               {"runs", ma},
                               {"coalesced_gbs", coGBs},
                               {"vector_add_same_n", va},
                               {"vector_add_best", vaBest},
                               {"vector_add_best_gbs", vaGBs},
                               {"ratio_to_vector_add", coGBs / vaGBs},
                               {"target_ratio", 0.95}};
  line("matrix_add_2d f32 %.0f^2: best coalesced %.1f GB/s = %.3fx of vector_add's best at the same n (target >= 0.95)",
       double(side), coGBs, coGBs / vaGBs);
}

/// coalescing: useful GB/s of the strided and the coalesced kernel for strides 1…32 (n = 2^24 outputs, quick: 2^20
/// and six strides), each beside the predicted 32-byte sectors per warp load (the workload's metric).
void coalescingCurve(Engine& engine, bool quick, int reps, ordered_json& root, bool& ok) {
  const std::uint64_t n = quick ? (1u << 20) : (1u << 24);
  const std::vector<int> strides = quick ? std::vector<int>{1, 2, 4, 8, 16, 32} : [] {
    std::vector<int> all;
    for (int s = 1; s <= 32; ++s) all.push_back(s);
    return all;
  }();
  ordered_json curve = ordered_json::array();
  std::printf("coalescing f32 n=%llu: stride, strided GB/s, coalesced GB/s, predicted sectors per warp load\n",
              (unsigned long long)n);
  for (int s : strides) {
    ordered_json rows = ordered_json::array();
    const RunResult r = runOne(engine, "coalescing", n, "cuda-coalesced,cuda-strided", reps, "auto", "auto",
                               {{"stride", std::to_string(s)}});
    bestGBs(r, rows, ok);
    const ImplResult* st = r.find("cuda-strided");
    const ImplResult* co = r.find("cuda-coalesced");
    const double stGBs = st ? st->bandwidthGBs : 0, coGBs = co ? co->bandwidthGBs : 0;
    const double sectors =
        st && st->metrics.count("sectors_per_warp_load") ? st->metrics.at("sectors_per_warp_load") : 0;
    curve.push_back({{"stride", s},
                     {"strided_gbs", stGBs},
                     {"coalesced_gbs", coGBs},
                     {"predicted_sectors_per_warp_load", sectors},
                     {"runs", rows}});
    std::printf("  %2d  %8.1f  %8.1f  %2.0f\n", s, stGBs, coGBs, sectors);
  }
  root["coalescing_f32"] = {{"n", n}, {"curve", curve}};
}

/// row_col_sums f32 16384^2 (quick: 2048^2): every variant (auto launch) and the seed's 64 x 256 launch; the best
/// variant's read GB/s against cudaMemcpy's (read + write) GB/s.
void rowColSumsFigure(Engine& engine, bool quick, int reps, double copy, ordered_json& root, bool& ok) {
  const std::uint64_t side = quick ? 2048 : 16384;
  ordered_json runs = ordered_json::array(), seedRuns = ordered_json::array();
  std::string bestId;
  const RunResult r =
      runOne(engine, "row_col_sums", side, "cuda-thread-per-line,cuda-block-reduce,cuda-cub-segmented", reps);
  const double best = bestGBs(r, runs, ok, &bestId);
  const RunResult seed = runOne(engine, "row_col_sums", side, "cuda-thread-per-line", reps, "256", "64");
  bestGBs(seed, seedRuns, ok);
  ordered_json passes = ordered_json::object();
  for (const RunResult* run : {&r, &seed})
    for (const auto& i : run->impls)
      if (i.gpu && i.metrics.count("row_sums_ms"))
        passes[i.implId + (run == &seed ? " (seed 64 x 256)" : "")] = {{"row_sums_ms", i.metrics.at("row_sums_ms")},
                                                                       {"col_sums_ms", i.metrics.at("col_sums_ms")},
                                                                       {"launch_note", i.launchNote}};
  root["row_col_sums_f32"] = {
      {"rows", side},        {"cols", side},   {"runs", runs},     {"seed_launch", seedRuns},
      {"passes", passes},    {"best", bestId}, {"best_gbs", best}, {"ratio_to_memcpy", best / copy},
      {"target_ratio", 0.85}};
  line("row_col_sums f32 %.0f^2: best %.1f GB/s read = %.3fx of cudaMemcpy's read + write GB/s (target >= 0.85)",
       double(side), best, best / copy);
  if (const ImplResult* s = seed.find("cuda-thread-per-line"); s && s->metrics.count("row_sums_ms"))
    std::printf("  seed launch 64 x 256: row_sums %.3f ms, col_sums %.3f ms (%s)\n", s->metrics.at("row_sums_ms"),
                s->metrics.at("col_sums_ms"), s->launchNote.c_str());
}

/// matmul f32 4096^3: the best hand-written kernel against cuBLAS SGEMM (TF32 off), measured in one run;
/// the 16 x 16 tiled kernel (Numba's example) and cuBLAS TF32 reported beside them.
void matmulFigure(Engine& engine, bool quick, int reps, ordered_json& root, bool& ok) {
  const std::uint64_t side = quick ? 512 : 4096;
  ordered_json rows = ordered_json::array();
  const RunResult r =
      runOne(engine, "matmul", side, "cuda-naive,cuda-tiled-16,cuda-register-tiled,cublas-sgemm,cublas-tf32", reps);
  bestGBs(r, rows, ok);  // the rows and their verification; the figure is GFLOP/s
  auto gflops = [&](const char* id) {
    const ImplResult* i = r.find(id);
    return i && i->status == Status::Ok && i->verification.passed() ? i->gflops : 0.0;
  };
  std::string bestId;
  double best = 0;
  for (const char* id : {"cuda-naive", "cuda-tiled-16", "cuda-register-tiled"})
    if (gflops(id) > best) {
      best = gflops(id);
      bestId = id;
    }
  const double sgemm = gflops("cublas-sgemm");
  root["matmul_f32"] = {{"m", side},
                        {"k", side},
                        {"n", side},
                        {"runs", rows},
                        {"best_hand_written", bestId},
                        {"best_gflops", best},
                        {"tiled16_gflops", gflops("cuda-tiled-16")},
                        {"cublas_sgemm_gflops", sgemm},
                        {"cublas_tf32_gflops", gflops("cublas-tf32")},
                        {"ratio_to_cublas_sgemm", sgemm > 0 ? best / sgemm : 0.0},
                        {"target_ratio", 0.90}};
  std::printf(
      "matmul f32 %llu^3: %s %.0f GFLOP/s = %.3fx of cublas-sgemm %.0f GFLOP/s (target >= 0.90); "
      "cuda-tiled-16 %.0f, cublas-tf32 %.0f GFLOP/s\n",
      (unsigned long long)side, bestId.c_str(), best, sgemm > 0 ? best / sgemm : 0.0, sgemm, gflops("cuda-tiled-16"),
      gflops("cublas-tf32"));
}

/// mandelbrot f32: the tutorial's region at side x side pixels (quick: 1000), the CUDA variants, against
/// the FP32 FMA ceiling measured in the same run. A round of Floyd's test is 27 floating-point operations as
/// written (three steps z^2 + c of 4 multiplications and 3 additions, two |z|^2 tests of 2 and 1), whichever way a
/// variant rounds them (cuda-fma fuses them into fewer instructions).
void mandelbrotFigure(Engine& engine, bool quick, int reps, ordered_json& root, bool& ok) {
  constexpr double kFlopsPerRound = 27;
  const std::uint64_t side = quick ? 1000 : 4096;
  const double fma = engine.gpu().measureFp32FmaGflops(reps);
  char step[32];
  std::snprintf(step, sizeof step, "%.9g", 3.0 / double(side));
  ordered_json rows = ordered_json::array();
  const RunResult r = runOne(engine, "mandelbrot", side, "cuda-per-pixel,cuda-fma,cuda-scattered", reps, "auto", "auto",
                             {{"step", step}});
  bestGBs(r, rows, ok);  // the rows and their verification; the figure is GFLOP/s
  auto gflops = [&](const char* id) {
    const ImplResult* i = r.find(id);
    return i && i->metrics.count("grounds_per_s") ? kFlopsPerRound * i->metrics.at("grounds_per_s") : 0.0;
  };
  const double perPixel = gflops("cuda-per-pixel"), fused = gflops("cuda-fma"), scattered = gflops("cuda-scattered");
  const double best = std::max(perPixel, fused);
  root["mandelbrot_f32"] = {{"side", side},
                            {"runs", rows},
                            {"flops_per_round", kFlopsPerRound},
                            {"fma_peak_gflops", fma},
                            {"per_pixel_gflops", perPixel},
                            {"fma_variant_gflops", fused},
                            {"scattered_gflops", scattered},
                            {"ratio_to_fma_peak", fma > 0 ? best / fma : 0.0},
                            {"exact_ratio_to_fma_peak", fma > 0 ? perPixel / fma : 0.0},
                            {"target_ratio", 0.30}};
  std::printf(
      "mandelbrot f32 %llu^2 (27 FLOP a round): cuda-fma %.0f GFLOP/s = %.3fx, cuda-per-pixel (CPU's "
      "rounding) %.0f = %.3fx of the FP32 FMA kernel's %.0f GFLOP/s (target >= 0.30); cuda-scattered %.0f\n",
      (unsigned long long)side, fused, fma > 0 ? fused / fma : 0.0, perPixel, fma > 0 ? perPixel / fma : 0.0, fma,
      scattered);
}

/// Host: a STREAM-like copy against cpu-parallel vector_add f32 at 2^27.
void hostFigures(Engine& engine, bool quick, int reps, ordered_json& root, bool& ok) {
  const std::uint64_t big = quick ? (1u << 20) : (1u << 27);
  const double hostCopy = Engine::measureHostCopyBandwidthGBs(std::size_t(big) * 4, reps);
  RunResult hostRun = runOne(engine, "vector_add", big, "cpu-parallel", reps);
  const ImplResult* cpuPar = hostRun.find("cpu-parallel");
  const double cpuParGBs = cpuPar ? cpuPar->bandwidthGBs : 0;
  root["host_copy_gbs"] = hostCopy;
  root["cpu_parallel_vector_add_f32"] = {
      {"n", big},
      {"gbs", cpuParGBs},
      {"ratio_to_host_copy", cpuParGBs / hostCopy},
      {"target_ratio", 0.8},
      {"verification", cpuPar ? std::string(outcomeName(cpuPar->verification.outcome)) : "missing"}};
  line("host STREAM-like copy: %.1f GB/s; cpu-parallel vector_add f32: %.1f GB/s (%.2fx of copy, target >= 0.80)",
       hostCopy, cpuParGBs, cpuParGBs / hostCopy);
  ok = ok && cpuPar && cpuPar->verification.passed();
}

/// vector_add f32 at 2^27 (every CUDA variant with auto launch, a block sweep of the vectorised kernel, the course's
/// 30 x 128 launch of the grid-stride kernel), gaussian_pdf's kernel at 1M, and hypot's course launches.
void foundationFigures(Engine& engine, bool quick, int reps, double copy, ordered_json& root, bool& ok) {
  const std::uint64_t big = quick ? (1u << 20) : (1u << 27);
  const std::uint64_t million = quick ? 100000 : 1000000;
  ordered_json va = ordered_json::array();
  double best = 0;
  std::string bestWhat;
  auto consider = [&](const RunResult& r) {
    for (const auto& i : r.impls) {
      if (!i.gpu) continue;
      va.push_back(implJson(i));
      ok = ok && i.status == Status::Ok && i.verification.passed();
      if (i.status == Status::Ok && i.verification.passed() && i.bandwidthGBs > best) {
        best = i.bandwidthGBs;
        bestWhat = i.implId + " " + (i.launch ? formatDim3(i.launch->grid) + " x " + formatDim3(i.launch->block) : "");
      }
    }
  };
  consider(runOne(engine, "vector_add", big, "cuda-one-per-thread,cuda-grid-stride,cuda-vectorized", reps));
  sweepBlocks(engine, "vector_add", big, "cuda-vectorized", reps, {"128", "256", "512", "1024"}, consider);
  consider(runOne(engine, "vector_add", big, "cuda-grid-stride", reps, "128", "30"));
  consider(runOne(engine, "vector_add", big, "cuda-grid-stride", reps, "256", "4224"));
  root["vector_add_f32"] = {{"n", big},
                            {"runs", va},
                            {"best_gbs", best},
                            {"best", bestWhat},
                            {"ratio_to_memcpy", best / copy},
                            {"target_ratio", 0.95}};
  std::printf("vector_add f32 n=%llu best: %s at %.1f GB/s = %.3fx of cudaMemcpy (target >= 0.95)\n",
              (unsigned long long)big, bestWhat.c_str(), best, best / copy);

  // gaussian_pdf f32 at 1M: kernel median.
  RunResult g = runOne(engine, "gaussian_pdf", million, "cuda", std::max(reps, 50));
  const ImplResult* gi = g.find("cuda");
  const double gms = gi ? gi->computeMedianMs() : 0;
  root["gaussian_pdf_f32"] = {
      {"n", million}, {"kernel_median_ms", gms}, {"target_ms", 0.02}, {"result", gi ? implJson(*gi) : ordered_json()}};
  std::printf("gaussian_pdf f32 n=%llu kernel median: %.4f ms (target <= 0.02 ms)\n", (unsigned long long)million, gms);
  ok = ok && gi && gi->status == Status::Ok && gi->verification.passed();

  // hypot: the course's two launches and an auto one.
  ordered_json hy = ordered_json::array();
  for (auto [gr, bl] : {std::pair<unsigned, unsigned>{1, 1}, {128, 64}, {0, 0}}) {
    RunResult h =
        gr ? runOne(engine, "hypot", million, "cuda-grid-stride", quick ? 2 : 5, std::to_string(bl), std::to_string(gr))
           : runOne(engine, "hypot", million, "cuda-grid-stride", reps);
    if (const ImplResult* hi = h.find("cuda-grid-stride")) {
      hy.push_back(implJson(*hi));
      std::printf("hypot f32 n=%llu %s: kernel %.4f ms\n", (unsigned long long)million,
                  hi->launch ? (formatDim3(hi->launch->grid) + " x " + formatDim3(hi->launch->block)).c_str() : "?",
                  hi->computeMedianMs());
      ok = ok && hi->status == Status::Ok && hi->verification.passed();
    }
  }
  root["hypot_f32"] = hy;
}

}  // namespace

std::string checkBenchSections(const std::vector<std::string>& sections) {
  for (const auto& s : sections)
    if (std::find(std::begin(kBenchSections), std::end(kBenchSections), s) == std::end(kBenchSections)) {
      std::string known;
      for (const char* k : kBenchSections) known += std::string(known.empty() ? "" : ", ") + k;
      return "unknown section '" + s + "' (known: " + known + ")";
    }
  return {};
}

int runBench(Engine& engine, const BenchOptions& o) {
  const int reps = o.quick ? 3 : o.reps;
  auto wanted = [&](const char* s) {
    return o.sections.empty() || std::find(o.sections.begin(), o.sections.end(), s) != o.sections.end();
  };
  ordered_json root = jsonDocument("launchlab.bench");
  root["timestamp"] = nowIso8601();
  root["host"] = hostDescription();
  root["device"] = engine.deviceStatus();
  root["quick"] = o.quick;
  if (!o.sections.empty()) root["sections"] = o.sections;
  bool ok = true;
  if (wanted("host")) hostFigures(engine, o.quick, reps, root, ok);
  const bool gpuWanted = wanted("foundation") || wanted("memory") || wanted("coalescing") || wanted("row_col_sums") ||
                         wanted("matmul") || wanted("mandelbrot");
  if (gpuWanted && !engine.deviceStatus().available) {
    root["gpu"] = {{"skipped", engine.deviceStatus().reason}};
    std::printf("GPU figures skipped: %s\n", engine.deviceStatus().reason.c_str());
  } else if (gpuWanted) {
    // The ceiling, measured in this run: cudaMemcpy device-to-device over 1 GiB.
    const double copy = engine.gpu().measureCopyBandwidthGBs(std::size_t(1) << (o.quick ? 26 : 30), reps);
    root["gpu_memcpy_d2d_gbs"] = copy;
    line("cudaMemcpy D2D: %.1f GB/s (read + write)", copy);
    if (wanted("foundation")) foundationFigures(engine, o.quick, reps, copy, root, ok);
    // The memory chapter.
    if (wanted("memory")) memoryFigures(engine, o.quick, reps, copy, root, ok);
    if (wanted("coalescing")) coalescingCurve(engine, o.quick, reps, root, ok);
    if (wanted("row_col_sums")) rowColSumsFigure(engine, o.quick, reps, copy, root, ok);
    if (wanted("matmul")) matmulFigure(engine, o.quick, reps, root, ok);
    if (wanted("mandelbrot")) mandelbrotFigure(engine, o.quick, reps, root, ok);
  }
  root["all_verified"] = ok;
  if (!o.json.empty()) {
    if (o.json == "-")
      std::cout << dumpJson(root, 2) << "\n";
    else
      files::writeAtomic(o.json, dumpJson(root, 2) + "\n");
  }
  return ok ? 0 : 1;
}
