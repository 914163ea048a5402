// Run files (.llrun, io/run_file.h): the round trip, and files a careless or hostile hand made.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "core/full_result.h"
#include "helpers/test_files.h"
#include "launchlab/engine/errors.h"
#include "launchlab/files/json.h"
#include "launchlab/files/json_within.h"
#include "launchlab/files/npy.h"
#include "launchlab/files/run_file.h"

using namespace launchlab;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const auto d = fs::temp_directory_path() / ("launchlab_runfile_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d / name;
}

/// fullResult() with names a run file takes (registry ids are ASCII; the sample's are deliberately not).
RunResult sampleRun() {
  RunResult r = sample::fullResult();
  int k = 0;
  for (auto& a : r.inputs) a.setName("input_" + std::to_string(++k));
  for (auto& i : r.impls) {
    i.implId = "impl-" + std::to_string(++k);
    for (auto& a : i.outputs) a.setName("out." + std::to_string(++k));
  }
  return r;
}

using test::slurp;

void spit(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

/// A ZIP of exactly these members, written with libarchive as any zip tool would.
void writeZip(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& members) {
  archive* a = archive_write_new();
  archive_write_set_format_zip(a);
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const auto& [name, content] : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, la_int64_t(content.size()));
    ASSERT_EQ(archive_write_header(a, e), ARCHIVE_OK);
    ASSERT_EQ(archive_write_data(a, content.data(), content.size()), la_ssize_t(content.size()));
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
}

std::string loadError(const fs::path& p) {
  try {
    runfile::load(p.string());
  } catch (const BadInput& e) {
    return e.what();
  }
  return "(loaded)";
}

std::string npyOf(const HostArray& a) {
  return npy::serializeHeader(a) + std::string(static_cast<const char*>(a.data()), a.bytes());
}

std::string runJson() {
  RunResult r = sampleRun();
  return json::runResult(r);
}

}  // namespace

TEST(RunFile, RoundTripsEveryMemberAndEveryArray) {
  const RunResult r = sampleRun();
  const auto path = scratch("full.llrun");
  runfile::save(path.string(), r);
  const RunResult back = runfile::load(path.string());
  EXPECT_EQ(back.inputs, r.inputs);
  for (std::size_t i = 0; i < r.impls.size(); ++i) EXPECT_EQ(back.impls.at(i).outputs, r.impls[i].outputs);
  EXPECT_EQ(back, r);
}

TEST(RunFile, IsAZipOfRunJsonAndNpyMembers) {
  const RunResult r = sampleRun();
  const auto path = scratch("layout.llrun");
  runfile::save(path.string(), r);
  archive* a = archive_read_new();
  archive_read_support_format_zip(a);
  ASSERT_EQ(archive_read_open_filename(a, path.c_str(), 4096), ARCHIVE_OK);
  std::vector<std::string> names;
  archive_entry* e = nullptr;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) names.push_back(archive_entry_pathname(e));
  archive_read_free(a);
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "run.json");
  EXPECT_NE(std::find(names.begin(), names.end(), "inputs/input_1.npy"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), r.impls[0].implId + "/" + r.impls[0].outputs[0].name() + ".npy"),
            names.end());
}

TEST(RunFile, SaysWhereAndWhenTheRunWasMeasured) {
  RunResult r = sampleRun();
  r.device.available = true;
  r.device.info.name = "NVIDIA H200";
  r.device.info.driverVersion = 13000;
  r.timestamp = "2026-11-23T14:02:33Z";
  r.slurm = {};
  EXPECT_EQ(runfile::recordedOn(r), "NVIDIA H200 (driver 13.0), 2026-11-23 14:02 UTC");
  r.slurm = {"4711", "0", "gpu03", "1"};  // measured in a Slurm job step: which one goes with the machine
  EXPECT_EQ(runfile::recordedOn(r),
            "NVIDIA H200 (driver 13.0) in Slurm job 4711 on node gpu03 (GPUs 1), 2026-11-23 14:02 UTC");
  r.slurm = {};
  r.device.available = false;
  r.device.reason = "no NVIDIA driver";
  EXPECT_EQ(runfile::recordedOn(r), "a machine without a usable GPU (no NVIDIA driver), 2026-11-23 14:02 UTC");
}

TEST(RunFile, ATruncatedFileIsOneClearError) {
  const auto path = scratch("whole.llrun");
  runfile::save(path.string(), sampleRun());
  const std::string bytes = slurp(path);
  for (std::size_t keep : {std::size_t(0), std::size_t(10), bytes.size() / 3, bytes.size() / 2, bytes.size() - 30}) {
    SCOPED_TRACE(keep);
    const auto cut = scratch("cut.llrun");
    spit(cut, bytes.substr(0, keep));
    const std::string why = loadError(cut);
    EXPECT_EQ(why.rfind(cut.string() + ": ", 0), 0u) << why;
  }
}

TEST(RunFile, RefusesMembersItDoesNotKnow) {
  const HostArray a("x", DType::F32, {4});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"notes.txt", "hello"},         {"../evil.npy", npyOf(a)},
      {"/etc/evil.npy", npyOf(a)},    {"inputs/../../x.npy", npyOf(a)},
      {"inputs/sub/x.npy", npyOf(a)}, {"inputs/.hidden.npy", npyOf(a)},
      {"inputs/x.txt", npyOf(a)},     {"x.npy", npyOf(a)}};
  for (const auto& [name, content] : cases) {
    SCOPED_TRACE(name);
    const auto path = scratch("member.llrun");
    writeZip(path, {{"run.json", runJson()}, {name, content}});
    EXPECT_NE(loadError(path).find("unexpected member"), std::string::npos) << loadError(path);
  }
}

TEST(RunFile, RefusesMissingJsonDuplicatesAndOrphanArrays) {
  const HostArray a("x", DType::F32, {4});
  const auto path = scratch("bad.llrun");
  writeZip(path, {{"inputs/x.npy", npyOf(a)}});
  EXPECT_NE(loadError(path).find("no run.json"), std::string::npos);
  writeZip(path, {{"run.json", runJson()}, {"inputs/x.npy", npyOf(a)}, {"inputs/x.npy", npyOf(a)}});
  EXPECT_NE(loadError(path).find("appears twice"), std::string::npos);
  writeZip(path, {{"run.json", runJson()}, {"nobody/x.npy", npyOf(a)}});
  EXPECT_NE(loadError(path).find("'nobody'"), std::string::npos);
  writeZip(path, {{"run.json", "{\"schema\": \"launchlab.sweep\"}"}});
  EXPECT_NE(loadError(path).find("run.json"), std::string::npos);
  writeZip(path, {{"run.json", "{ not json"}});
  EXPECT_NE(loadError(path).find("run.json"), std::string::npos);
  spit(path, "PK\x03\x04 this is not really a zip");
  EXPECT_NE(loadError(path).find("not a LaunchLab run file"), std::string::npos);
}

TEST(RunFile, HugeDeclaredSizesAreRefusedBeforeAnythingIsAllocated) {
  // An .npy whose header announces 2^40 elements but holds 16 bytes.
  std::string npy = npy::serializeHeader(HostArray("x", DType::F32, {4}));
  const auto at = npy.find("(4,)");
  npy.replace(at, 4, "(1099511627776,)");
  const auto path = scratch("huge.llrun");
  writeZip(path, {{"run.json", runJson()}, {"inputs/x.npy", npy + std::string(16, '\0')}});
  EXPECT_NE(loadError(path).find("truncated data"), std::string::npos) << loadError(path);

  // run.json's sizes in the local and central headers patched to 4 GiB - 16.
  writeZip(path, {{"run.json", runJson()}});
  std::string zip = slurp(path);
  auto patch = [&](const char* signature, std::size_t sizeOffset) {
    const auto h = zip.find(signature);
    ASSERT_NE(h, std::string::npos);
    const unsigned char huge[4] = {0xF0, 0xFF, 0xFF, 0xFF};
    std::memcpy(zip.data() + h + sizeOffset, huge, 4);
  };
  patch("PK\x03\x04", 22);  // local header: uncompressed size
  patch("PK\x01\x02", 24);  // central directory: uncompressed size
  spit(path, zip);
  const std::string why = loadError(path);
  EXPECT_EQ(why.rfind(path.string() + ": ", 0), 0u) << why;
}

// A decompression bomb: an array member deflated from 64 MiB of zeros to a few dozen KiB. Arrays are stored
// uncompressed, so no member may inflate beyond the file's own size: refused from its declared size, unread.
TEST(RunFile, AnArrayThatInflatesBeyondTheFileIsRefusedUnread) {
  const std::size_t count = std::size_t(16) << 20;
  HostArray zeros("x", DType::F32, {count});
  std::memset(zeros.data(), 0, zeros.bytes());
  const auto path = scratch("bomb.llrun");
  writeZip(path, {{"run.json", runJson()}, {"inputs/x.npy", npyOf(zeros)}});  // writeZip deflates
  ASSERT_LT(fs::file_size(path), zeros.bytes() / 16);
  const std::string why = loadError(path);
  EXPECT_NE(why.find("member 'inputs/x.npy' declares"), std::string::npos) << why;
  EXPECT_NE(why.find("arrays are stored uncompressed"), std::string::npos) << why;
  // The same array stored, as LaunchLab writes it, loads.
  RunResult r = sampleRun();
  r.inputs = {zeros};
  runfile::save(path.string(), r);
  EXPECT_EQ(runfile::load(path.string()).inputs.at(0).bytes(), zeros.bytes());
}

// A verification records its first 16 mismatching indices; a run.json with 10^6 of them took seconds and
// hundreds of MB to open. Refused when read, with the reason.
TEST(RunFile, AVerificationWithMoreMismatchIndicesThanRecordedIsRefused) {
  std::string json = runJson();
  const auto key = json.find("\"first_mismatches\"");
  ASSERT_NE(key, std::string::npos);
  const auto open = json.find('[', key);
  std::string many;
  for (int i = 0; i < 1000000; ++i) many += std::to_string(i) + ",";
  json.insert(open + 1, many);
  const auto path = scratch("mismatches.llrun");
  writeZip(path, {{"run.json", json}});
  const std::string why = loadError(path);
  EXPECT_NE(why.find("more than the 16 a verification records"), std::string::npos) << why.substr(0, 300);
}

namespace {
/// The error of loading a run file `name` whose run.json lists `many` (a list's items, each followed by a comma)
/// first in its first verification's first_mismatches; `jsonBytes`: the size of that run.json.
std::string loadErrorWithMismatches(const char* name, const std::string& many, std::size_t& jsonBytes) {
  std::string json = runJson();
  json.insert(json.find('[', json.find("\"first_mismatches\"")) + 1, many);
  jsonBytes = json.size();
  const auto path = scratch(name);
  writeZip(path, {{"run.json", json}});
  return loadError(path);
}
}  // namespace

// A 60 KB file whose run.json inflates to tens of MiB parsed into a tree of hundreds of MiB, and under a memory
// limit the program aborted (a second allocation failed while the first failure unwound). Refused unparsed.
TEST(RunFile, ARunJsonOfTensOfMegabytesIsRefusedBeforeItIsParsed) {
  std::string many;
  for (int i = 0; i < 9000000; ++i) many += std::to_string(i % 10) + ",";
  std::size_t bytes = 0;
  const std::string why = loadErrorWithMismatches("bigjson.llrun", many, bytes);
  ASSERT_GT(bytes, runfile::kMaxJsonBytes);
  EXPECT_NE(why.find("run.json"), std::string::npos) << why.substr(0, 300);
  EXPECT_EQ(why.find("a verification records"), std::string::npos) << "parsed: " << why.substr(0, 300);
}

// 16 MiB of "1," (the most run.json may hold) parsed into a tree of 400 MiB, and under a memory limit the program
// aborted while freeing it (nlohmann frees a container through a stack as large as it). The values are counted
// before any tree is built: millions of them are refused unbuilt.
TEST(RunFile, MillionsOfValuesInRunJsonAreRefusedBeforeItsTreeIsBuilt) {
  constexpr std::size_t kMaxJsonValues = std::size_t(1) << 21;  // run_file.cpp's cap
  std::string many;
  for (std::size_t i = 0; i <= kMaxJsonValues; ++i) many += "1,";
  std::size_t bytes = 0;
  const std::string why = loadErrorWithMismatches("manyvalues.llrun", many, bytes);
  ASSERT_LT(bytes, runfile::kMaxJsonBytes);
  EXPECT_NE(why.find("run.json: more than 2097152 JSON values"), std::string::npos) << why.substr(0, 300);
  // As many values as the cap (the array and its elements) are parsed; one more is refused.
  const std::string atCap = "[" + many.substr(0, 2 * (kMaxJsonValues - 2)) + "1]";
  EXPECT_EQ(parseJsonWithin(atCap, kMaxJsonValues).size(), kMaxJsonValues - 1);
  EXPECT_THROW(parseJsonWithin("[1," + atCap.substr(1), kMaxJsonValues), BadInput);
}

TEST(RunFile, ThousandsOfImplementationsAreRefused) {
  RunResult r = sampleRun();
  const ImplResult one = r.impls.at(0);
  r.impls.clear();
  for (std::size_t i = 0; i <= runfile::kMaxImpls; ++i) {
    r.impls.push_back(one);
    r.impls.back().implId = "impl-" + std::to_string(i);
    r.impls.back().outputs.clear();
  }
  const auto path = scratch("manyimpls.llrun");
  runfile::save(path.string(), r);
  const std::string why = loadError(path);
  EXPECT_NE(why.find("more than the 256 a run holds"), std::string::npos) << why;
}

TEST(RunFile, ArrayNamesItCouldNotReadBackAreNotWritten) {
  RunResult r = sampleRun();
  r.inputs[0].setName("../escape");
  EXPECT_THROW(runfile::save(scratch("never.llrun").string(), r), std::runtime_error);
  EXPECT_FALSE(fs::exists(scratch("never.llrun")));
}

// The views read the reference's output at the shown implementation's indices: a file whose implementations
// disagree on an output's shape (a shorter reference, say) is refused when it is opened, as a worker's reply is.
TEST(RunFile, OutputsOfOneNameMustAgreeInDtypeAndShape) {
  RunResult r = sampleRun();
  ASSERT_GE(r.impls.size(), 2u);
  ASSERT_FALSE(r.impls[0].outputs.empty());
  HostArray shorter(r.impls[0].outputs[0].name(), r.impls[0].outputs[0].dtype(), {1});
  r.impls[1].outputs = {r.impls[0].outputs[0]};
  r.impls[0].outputs[0] = shorter;
  const auto path = scratch("disagreeing.llrun");
  runfile::save(path.string(), r);
  const std::string why = loadError(path);
  EXPECT_NE(why.find("output '" + shorter.name() + "' is"), std::string::npos) << why;
  EXPECT_NE(why.find(r.impls[1].implId), std::string::npos) << why;
}
