// The one JSON form of a run result (io/json_value.h): the whole struct survives a round trip, the public document
// keeps the keys docs/JSON_SCHEMA.md lists, non-finite numbers follow the schema, and malformed documents are
// errors (BadInput), never crashes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "full_result.h"
#include "launchlab/engine/errors.h"
#include "launchlab/files/csv.h"
#include "launchlab/files/json.h"
#include "launchlab/files/json_value.h"

using namespace launchlab;
using launchlab::sample::Distinct;
using nlohmann::ordered_json;

namespace {

RunResult read(const ordered_json& j) { return j.get<RunResult>(); }

/// Equal as a whole, with the differing part named first (the dumps give a readable diff of the mapped keys).
void expectSame(const RunResult& got, const RunResult& want) {
  EXPECT_EQ(dumpJson(ordered_json(got), 2), dumpJson(ordered_json(want), 2));
  EXPECT_TRUE(got.device == want.device);
  ASSERT_EQ(got.impls.size(), want.impls.size());
  for (std::size_t k = 0; k < want.impls.size(); ++k) EXPECT_TRUE(got.impls[k] == want.impls[k]) << "impl " << k;
  EXPECT_TRUE(got == want);
}

std::vector<std::string> keys(const ordered_json& j) {
  std::vector<std::string> k;
  for (const auto& [key, value] : j.items()) k.push_back(key);
  return k;
}

}  // namespace

TEST(ResultJson, WholeResultRoundTrips) {
  const RunResult r = sample::withoutArrays(sample::fullResult());
  expectSame(read(ordered_json(r)), r);
  // The public text too: what json::runResult writes is what the mapping reads.
  expectSame(read(ordered_json::parse(json::runResult(sample::fullResult()))), r);
}

TEST(ResultJson, UnavailableDeviceRoundTrips) {
  Distinct v;
  RunResult r = sample::withoutArrays(sample::fullResult());
  r.device = sample::unavailableDevice(v);
  expectSame(read(ordered_json(r)), r);
  EXPECT_EQ(keys(ordered_json(r.device)), (std::vector<std::string>{"available", "reason"}));
}

TEST(ResultJson, EveryEnumValueRoundTripsByName) {
  int statuses = 0, outcomes = 0, phases = 0;
  for (int s = 0; statusName(Status(s)) != "?"; ++s, ++statuses) {
    ImplResult i;
    i.status = Status(s);
    EXPECT_EQ(ordered_json(i)["status"].get<std::string>(), statusName(Status(s)));
    EXPECT_TRUE(ordered_json(i).get<ImplResult>() == i) << statusName(Status(s));
  }
  for (int o = 0; outcomeName(Verification::Outcome(o)) != "?"; ++o, ++outcomes) {
    Verification v;
    v.outcome = Verification::Outcome(o);
    EXPECT_TRUE(ordered_json(v).get<Verification>() == v) << outcomeName(v.outcome);
  }
  for (int p = 0; phaseName(Phase(p)) != "?"; ++p, ++phases) {
    ImplResult i;
    i.phases[Phase(p)] = {1.5, 0.5, 2.5, 3};
    EXPECT_TRUE(ordered_json(i).get<ImplResult>() == i) << phaseName(Phase(p));
  }
  EXPECT_EQ(statuses, 3);
  EXPECT_EQ(outcomes, 5);
  EXPECT_EQ(phases, 5);
}

TEST(ResultJson, NonFiniteNumbersAreNullAndReadBackAsTheSchemaSays) {
  ImplResult i;
  i.bytesMoved = NAN;
  i.bandwidthGBs = INFINITY;
  i.speedupTotal = -INFINITY;
  i.flops = 1;
  i.gflops = NAN;
  i.metrics["x"] = NAN;
  i.phases[Phase::Kernel] = {INFINITY, 0, 0, 1};
  i.verification.maxAbsError = INFINITY;
  i.verification.maxRelError = NAN;
  const ordered_json j = i;
  for (const auto* p : {"/bytes_moved", "/bandwidth_gbs", "/speedup_total_vs_cpu_serial", "/gflops", "/metrics/x",
                        "/phases/kernel/median_ms", "/verification/max_abs_error", "/verification/max_rel_error"})
    EXPECT_TRUE(j.at(ordered_json::json_pointer(p)).is_null()) << p;
  const ImplResult t = j.get<ImplResult>();
  EXPECT_TRUE(std::isnan(t.bytesMoved));
  EXPECT_TRUE(std::isnan(t.bandwidthGBs));
  EXPECT_TRUE(std::isnan(t.speedupTotal));
  EXPECT_TRUE(std::isnan(t.gflops));
  EXPECT_TRUE(std::isnan(t.metrics.at("x")));
  EXPECT_TRUE(std::isnan(t.phases.at(Phase::Kernel).medianMs));
  // Errors are maxima of |difference|: their only non-finite value is +infinity.
  EXPECT_EQ(t.verification.maxAbsError, INFINITY);
  EXPECT_EQ(t.verification.maxRelError, INFINITY);
}

TEST(ResultJson, AnImplementationThatDidNotRunHasNullFiguresNotZero) {
  RunResult r = sample::fullResult();
  const auto j = ordered_json::parse(json::runResult(r));
  const auto& failed = j["implementations"][2];
  ASSERT_EQ(failed["status"], "failed");
  for (const auto* k : {"bandwidth_gbs", "gflops", "speedup_total_vs_cpu_serial", "speedup_compute_vs_cpu_serial"})
    EXPECT_TRUE(failed[k].is_null()) << k;
  EXPECT_TRUE(failed["verification"]["max_abs_error"].is_null());
  EXPECT_TRUE(failed["verification"]["max_rel_error"].is_null());
  EXPECT_TRUE(j["implementations"][0]["bandwidth_gbs"].is_number());
  EXPECT_EQ(j.get<RunResult>().impls[2].bandwidthGBs, 0.0);
}

TEST(ResultJson, CsvLeavesUnmeasuredCellsEmptyAndCarriesTheRun) {
  RunResult r = sample::fullResult();
  r.seed = 7;
  r.reps = 3;
  r.warmup = 1;
  r.params = {{"bins", "256"}, {"sigma", "0.5"}};
  std::istringstream in(csv::runResult(r));
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ls(line);
    while (std::getline(ls, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    rows.push_back(cells);
  }
  const auto& h = rows[0];
  auto col = [&](const std::string& name) { return std::size_t(std::find(h.begin(), h.end(), name) - h.begin()); };
  ASSERT_LT(col("params"), h.size());
  const auto& failed = rows[3];  // impls[2]
  ASSERT_EQ(failed[col("status")], "failed");
  for (const char* k : {"bandwidth_gbs", "speedup_vs_cpu_serial", "max_abs_error", "max_rel_error", "mismatches"})
    EXPECT_EQ(failed[col(k)], "") << k;
  EXPECT_NE(rows[1][col("bandwidth_gbs")], "");
  EXPECT_EQ(failed[col("seed")], "7");
  EXPECT_EQ(failed[col("reps")], "3");
  EXPECT_EQ(failed[col("warmup")], "1");
  EXPECT_EQ(failed[col("params")], "bins=256;sigma=0.5");
}

TEST(ResultJson, PublicDocumentKeepsTheSchemaKeysInOrder) {
  const RunResult r = sample::fullResult();
  const auto j = ordered_json::parse(json::runResult(r));
  EXPECT_EQ(keys(j),
            (std::vector<std::string>{"schema", "schema_version", "timestamp", "status", "reason", "workload", "n",
                                      "dtype", "seed", "warmup", "reps", "params", "requested_launch", "host", "slurm",
                                      "device", "gpu_sharing", "implementations", "all_passed"}));
  EXPECT_EQ(j["schema"], "launchlab.run");
  EXPECT_EQ(j["schema_version"], json::kSchemaVersion);
  EXPECT_EQ(j["all_passed"], false);
  const auto& full = j["implementations"][0];
  EXPECT_EQ(keys(full), (std::vector<std::string>{"id",
                                                  "title",
                                                  "gpu",
                                                  "demonstration",
                                                  "status",
                                                  "reason",
                                                  "cuda_fault",
                                                  "launch",
                                                  "phases",
                                                  "bytes_moved",
                                                  "bandwidth_gbs",
                                                  "flops",
                                                  "gflops",
                                                  "speedup_total_vs_cpu_serial",
                                                  "speedup_compute_vs_cpu_serial",
                                                  "metrics",
                                                  "scalars",
                                                  "verification",
                                                  "kernel_occupancy",
                                                  "block_trace",
                                                  "device_outputs",
                                                  "counters"}));
  EXPECT_EQ(keys(full["device_outputs"][0]),
            (std::vector<std::string>{"name", "dtype", "shape", "bytes", "device", "ipc_handle", "offset"}));
  EXPECT_EQ(keys(full["block_trace"]), (std::vector<std::string>{"block", "sm", "start_ns", "end_ns"}));
  EXPECT_EQ(full["block_trace"]["end_ns"][1], r.impls[0].blockTrace[1].endNs);
  EXPECT_EQ(
      keys(full["kernel_occupancy"][0]),
      (std::vector<std::string>{"symbol", "registers", "static_shared_bytes", "local_bytes", "max_threads_per_block",
                                "threads", "dynamic_shared_bytes", "grid_blocks", "blocks_per_sm"}));
  EXPECT_EQ(keys(full["launch"]),
            (std::vector<std::string>{"grid", "block", "dynamic_smem_bytes", "total_threads", "note"}));
  EXPECT_EQ(full["launch"]["total_threads"], r.impls[0].launch->totalThreads());
  EXPECT_EQ(keys(full["phases"]), (std::vector<std::string>{"h2d", "kernel", "d2h", "cpu", "total"}));
  EXPECT_EQ(keys(full["phases"]["cpu"]), (std::vector<std::string>{"median_ms", "min_ms", "max_ms", "samples"}));
  EXPECT_EQ(keys(full["verification"]),
            (std::vector<std::string>{"outcome", "max_abs_error", "max_rel_error", "mismatches", "compared",
                                      "first_mismatches", "note"}));
  const auto& sparse = j["implementations"][1];
  EXPECT_EQ(keys(sparse), (std::vector<std::string>{"id", "title", "gpu", "demonstration", "status", "phases",
                                                    "bytes_moved", "bandwidth_gbs", "speedup_total_vs_cpu_serial",
                                                    "speedup_compute_vs_cpu_serial", "verification"}));
  EXPECT_EQ(keys(j["device"]), (std::vector<std::string>{"available",
                                                         "index",
                                                         "name",
                                                         "compute_capability",
                                                         "multiprocessors",
                                                         "warp_size",
                                                         "max_threads_per_block",
                                                         "max_threads_per_multiprocessor",
                                                         "max_blocks_per_multiprocessor",
                                                         "max_block_dim",
                                                         "max_grid_dim",
                                                         "shared_mem_per_block",
                                                         "shared_mem_per_block_optin",
                                                         "shared_mem_per_multiprocessor",
                                                         "registers_per_block",
                                                         "registers_per_multiprocessor",
                                                         "global_memory_bytes",
                                                         "l2_cache_bytes",
                                                         "memory_bus_width_bits",
                                                         "memory_clock_khz",
                                                         "sm_clock_khz",
                                                         "theoretical_bandwidth_gbs",
                                                         "ecc_enabled",
                                                         "driver_version",
                                                         "runtime_version",
                                                         "pci_bus_id",
                                                         "devices"}));
  EXPECT_EQ(j["device"]["compute_capability"].get<std::string>(),
            std::to_string(r.device.info.ccMajor) + "." + std::to_string(r.device.info.ccMinor));
}

TEST(ResultJson, StringsThatAreNotUtf8DoNotFailTheDocument) {
  RunResult r;
  r.host = "cpu \xff\xfe";
  const std::string text = json::runResult(r);
  EXPECT_NE(text.find("cpu \xEF\xBF\xBD\xEF\xBF\xBD"), std::string::npos);  // U+FFFD for each bad byte
  EXPECT_EQ(read(ordered_json::parse(text)).host, "cpu \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(ResultJson, MalformedDocumentsAreBadInput) {
  const ordered_json good = sample::withoutArrays(sample::fullResult());
  const std::vector<std::pair<std::string, std::function<void(ordered_json&)>>> damage = {
      {"not an object",
       [](ordered_json& j) {
         j = ordered_json::array({1, 2});
       }},
      {"another schema", [](ordered_json& j) { j["schema"] = "launchlab.device"; }},
      {"missing n", [](ordered_json& j) { j.erase("n"); }},
      {"n as text", [](ordered_json& j) { j["n"] = "many"; }},
      {"unknown status", [](ordered_json& j) { j["status"] = "maybe"; }},
      {"status as a number", [](ordered_json& j) { j["status"] = 1; }},
      {"params not text",
       [](ordered_json& j) {
         j["params"] = {{"bins", 3}};
       }},
      {"implementations an object", [](ordered_json& j) { j["implementations"] = ordered_json::object(); }},
      {"unknown phase",
       [](ordered_json& j) {
         j["implementations"][0]["phases"]["warp"] = ordered_json(PhaseStats{1, 1, 1, 1});
       }},
      {"unknown outcome", [](ordered_json& j) { j["implementations"][0]["verification"]["outcome"] = "meh"; }},
      {"missing verification", [](ordered_json& j) { j["implementations"][0].erase("verification"); }},
      {"launch of two dims",
       [](ordered_json& j) {
         j["implementations"][0]["launch"]["grid"] = {1, 2};
       }},
      {"launch without note", [](ordered_json& j) { j["implementations"][0]["launch"].erase("note"); }},
      {"metric as text", [](ordered_json& j) { j["implementations"][0]["metrics"]["x"] = "1"; }},
      {"capability without dot", [](ordered_json& j) { j["device"]["compute_capability"] = "9"; }},
      {"capability not numbers", [](ordered_json& j) { j["device"]["compute_capability"] = "9.x"; }},
      {"capability too large", [](ordered_json& j) { j["device"]["compute_capability"] = "99999999999.0"; }},
      {"device without limits", [](ordered_json& j) { j["device"].erase("max_grid_dim"); }},
      {"block trace lists of different lengths",
       [](ordered_json& j) { j["implementations"][0]["block_trace"]["sm"].push_back(3); }},
      {"block trace negative SM", [](ordered_json& j) { j["implementations"][0]["block_trace"]["sm"][0] = -1; }},
      {"block trace without end", [](ordered_json& j) { j["implementations"][0]["block_trace"].erase("end_ns"); }},
  };
  for (const auto& [what, hurt] : damage) {
    ordered_json j = good;
    hurt(j);
    EXPECT_THROW(rethrowAsBadInput("run", [&] { return read(j); }), BadInput) << what;
  }
  EXPECT_NO_THROW(read(good));
}

TEST(ResultJson, CountersSayWhereTheyComeFromAndOlderFilesReadWithoutIt) {
  const RunResult r = sample::withoutArrays(sample::fullResult());
  const auto& want = *r.impls[0].counters;
  ASSERT_FALSE(want.source.empty());
  auto j = ordered_json(r);
  auto& counters = j["implementations"][0]["counters"];
  EXPECT_EQ(keys(counters).at(3), "source");
  EXPECT_EQ(keys(counters).at(4), "source_reason");
  EXPECT_EQ(counters["source"], want.source);
  const RunResult back = read(j);
  EXPECT_EQ(back.impls[0].counters->source, want.source);
  EXPECT_EQ(back.impls[0].counters->sourceReason, want.sourceReason);
  counters.erase("source");
  counters.erase("source_reason");
  const RunResult older = read(j);
  EXPECT_EQ(older.impls[0].counters->source, "");
  EXPECT_EQ(older.impls[0].counters->sourceReason, "");
  EXPECT_EQ(older.impls[0].counters->values, want.values);
}
