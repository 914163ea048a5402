// launchlab-cli course: the listing in course order, one experiment run as the seed launches it, every
// experiment's CPU part exiting 0, bad ids, and an instructor's folder of experiments.
#include <cstdlib>
#include <optional>
#include <set>

#include "cli/cli_helpers.h"
#include "launchlab/course/course.h"
#include "launchlab/engine/request.h"

using namespace launchlab::test;
namespace fs = std::filesystem;

namespace {

/// Empties CUDA_VISIBLE_DEVICES for the CLIs this test starts (a GPU machine then runs what CI runs: the CPU rows,
/// the CUDA rows skipped), and puts it back.
struct NoGpuForChildren {
  std::optional<std::string> saved;
  NoGpuForChildren() {
    if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) saved = v;
    ::setenv("CUDA_VISIBLE_DEVICES", "", 1);
  }
  ~NoGpuForChildren() {
    if (saved)
      ::setenv("CUDA_VISIBLE_DEVICES", saved->c_str(), 1);
    else
      ::unsetenv("CUDA_VISIBLE_DEVICES");
  }
};

}  // namespace

TEST(CliCourse, ListsEveryExperimentInCourseOrder) {
  Out r = cli("course");
  ASSERT_EQ(r.code, 0) << r.err;
  std::size_t at = 0;
  for (const auto& e : launchlab::courseExperiments()) {
    const auto found = r.out.find("  " + e.id + "  ", at);
    ASSERT_NE(found, std::string::npos) << e.id << " missing or out of order";
    at = found;
  }
  EXPECT_NE(r.out.find("run:  hypot --n 1000000 --dtype f32 --block 64 --grid 128"), std::string::npos);
  // The caching lesson's preset times the first, cold repetition: its command says so.
  EXPECT_NE(r.out.find("run:  go_fast --n 64 --dtype f64 --param d=64 --reps 10 --warmup 0"), std::string::npos);
}

TEST(CliCourse, JsonHasTheSeedRequests) {
  Out r = cli("course --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "launchlab.course");
  ASSERT_EQ(j["experiments"].size(), launchlab::courseExperiments().size());
  const auto& first = j["experiments"][0];
  EXPECT_EQ(first["id"], launchlab::courseExperiments().front().id);
  for (const auto& e : j["experiments"]) {
    if (e["id"] == "s3-caching") {
      EXPECT_EQ(e["request"]["warmup"], "0");
    }
    if (e["id"] != "tp32-histogram") continue;
    EXPECT_EQ(e["request"]["n"], "10000");
    EXPECT_EQ(e["request"]["grid"], "128");
    EXPECT_EQ(e["request"]["block"], "64");
    EXPECT_EQ(e["request"]["params"]["bins"], "10");
    EXPECT_EQ(e["seed"]["file"], "000_945c5bbc964fcfb4.txt");
  }
}

TEST(CliCourse, RunsOneExperimentThroughTheSameParser) {
  Out r = cli("course run es-atomic-counter-4x128 --reps 1 --warmup 0 --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);  // stdout is the JSON alone
  EXPECT_EQ(j["workload"], "atomic_counter");
  EXPECT_EQ(j["n"], 512);
  EXPECT_EQ(j["reps"], 1);
  EXPECT_EQ(j["dtype"], "i32");
  Out table = cli("course run tp32-square --reps 1 --warmup 0");
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("tp32-square: square_device"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("square  n=4Ki (2^12)  dtype=i64"), std::string::npos) << table.out;
}

TEST(CliCourse, NotesAreListedInPlaceAndPrintedByRun) {
  Out list = cli("course");
  ASSERT_EQ(list.code, 0) << list.err;
  for (const auto& n : launchlab::courseNotes())
    EXPECT_NE(list.out.find("  " + n.id + "  " + n.title + "  (note: "), std::string::npos) << n.id;
  EXPECT_NE(list.out.find("es-device-query  cuda.get_current_device(): the GPU's name, SMs and launch limits  (note: "
                          "course run prints the device query)"),
            std::string::npos);
  // The interpreter timings sit before the compiled Monte Carlo loop, as in the seed.
  EXPECT_LT(list.out.find("tp31-note-hypot-timeit"), list.out.find("tp31-monte-carlo-cpu"));
  Out note = cli("course run tp31-note-hypot-timeit");
  ASSERT_EQ(note.code, 0) << note.err;
  EXPECT_NE(note.out.find("683 ns"), std::string::npos) << note.out;
  Out query = cli("course run es-device-query");
  ASSERT_EQ(query.code, 0) << query.err;
  Out info = cli("info");
  // The device query is `info`, but for the GPU's users now (its own process id, load and clocks of the moment).
  const auto stable = [](const std::string& s) { return s.substr(0, s.find("GPU users:")); };
  EXPECT_NE(query.out.find(stable(info.out)), std::string::npos) << query.out;
  Out j = cli("course --json");
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["notes"].size(), launchlab::courseNotes().size());
}

TEST(CliCourse, TheJsonIsACourseFileThatReadsBackTheSame) {
  // COURSE_FORMAT: an experiment copied from `course --json` is a valid course file entry.
  Out r = cli("course --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const nlohmann::json file = {{"launchlab_course", 1}, {"experiments", j["experiments"]}, {"notes", j["notes"]}};
  const launchlab::CourseFile back = launchlab::parseCourseFile("course.json", file.dump());
  ASSERT_EQ(back.problem, "");
  const auto& all = launchlab::courseExperiments();
  ASSERT_EQ(back.experiments.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(back.experiments[i].id, all[i].id);
    EXPECT_EQ(back.experiments[i].seed.order, all[i].seed.order) << all[i].id;
    EXPECT_EQ(back.experiments[i].sweep, all[i].sweep) << all[i].id;
    EXPECT_EQ(back.experiments[i].request.params, all[i].request.params) << all[i].id;
  }
  EXPECT_EQ(back.notes.size(), launchlab::courseNotes().size());
}

TEST(CliCourse, EveryExperimentsCpuPartExitsZero) {
  // What a student without a GPU gets from `course run ID`: the CPU rows verified, the CUDA rows skipped, exit 0.
  // An outcome a lesson expects (a race, the tail a too-small grid leaves unwritten) is no failure; any other
  // mismatch is. One repetition, no warm-up. The presets beyond 2^22 elements (the sort of 1e8, the assessment's
  // 100M neurons, the 10M Z masses, the 16M-element sweep of launches, ...) run from a copy of themselves at 2^20:
  // at their own size their CPU parts take 100 s on two cores (the sort alone 90 s), at 2^20 a few seconds.
  NoGpuForChildren noGpu;
  constexpr std::uint64_t kMaxN = std::uint64_t(1) << 22;
  const fs::path dir = scratch() / "course-at-cpu-sizes";
  fs::create_directories(dir);
  Out listing = cli("course --json");
  ASSERT_EQ(listing.code, 0) << listing.err;
  nlohmann::json capped = nlohmann::json::array();
  std::set<std::string> cappedIds;
  const auto course = nlohmann::json::parse(listing.out);
  for (auto e : course["experiments"]) {
    const launchlab::CourseExperiment* x = launchlab::findCourseExperiment(e["id"].get<std::string>());
    ASSERT_NE(x, nullptr) << e["id"];
    const launchlab::ParsedRequest p = launchlab::parseRequest(x->request);
    ASSERT_TRUE(p.ok()) << x->id;
    if (!p.request.n || *p.request.n <= kMaxN) continue;
    e["request"]["n"] = "1048576";
    capped.push_back(e);
    cappedIds.insert(x->id);
  }
  ASSERT_GE(cappedIds.size(), 2u);  // at least the sort and the assessment's neurons
  std::ofstream(dir / "capped.json") << nlohmann::json{{"launchlab_course", 1}, {"experiments", capped}}.dump();
  const std::string fromCopy = " --course-dir '" + dir.string() + "' --course-dir-only";
  for (const auto& e : launchlab::courseExperiments()) {
    Out r = cli("course run " + e.id + " --reps 1 --warmup 0" + (cappedIds.count(e.id) ? fromCopy : ""));
    EXPECT_EQ(r.code, 0) << e.id << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("look for: "), std::string::npos) << e.id;
  }
}

TEST(CliCourse, ASweepExperimentRunsItsSweep) {
  Out list = cli("course");
  EXPECT_NE(list.out.find("sweep: gaussian_pdf --n 1000000,16777216 --dtype f32,f64"), std::string::npos);
  Out r = cli("course run tp31-dtype-i32-i64 --reps 1 --warmup 0 --impl cpu-serial");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("i32"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("i64"), std::string::npos) << r.out;  // both dtypes of the one experiment
}

TEST(CliCourse, BadIdsAndValuesAreBadInput) {
  expectBadInput("course run tp99-nothing", "unknown course experiment 'tp99-nothing'");
  expectBadInput("course run tp32-hypot-128x64 --reps 0", "--reps");
  expectBadInput("course run tp32-hypot-128x64 --impl cuda-nope", "cuda-nope");
}

// `course --markdown` (what docs/workloads/course.md points to instead of keeping a copy): one table row per
// experiment and note, in course order, under its chapter's heading; the notes that run nothing again with their
// text.
TEST(CliCourse, TheMarkdownListsEveryExperimentAndNoteInOrder) {
  Out r = cli("course --markdown");
  ASSERT_EQ(r.code, 0) << r.err;
  std::size_t at = 0;
  for (const auto& entry : launchlab::courseInOrder()) {
    const std::string& id = entry.experiment ? entry.experiment->id : entry.note->id;
    const auto found = r.out.find("| `" + id + "` | ", at);
    ASSERT_NE(found, std::string::npos) << id << " missing or out of order";
    EXPECT_NE(r.out.rfind("### " + entry.chapter() + "\n", found), std::string::npos) << id;
    at = found;
  }
  EXPECT_NE(r.out.find("| `tp32-hypot-128x64` | 000:"), std::string::npos);
  for (const auto& n : launchlab::courseNotes()) {
    if (n.command.empty()) {
      EXPECT_NE(r.out.find("- `" + n.id + "` (" + n.seed.file.substr(0, 3)), std::string::npos);
    }
  }
  expectBadInput("course --markdown --json", "excludes");
}

TEST(CliCourse, ACourseDirFollowsTheCourseAndABadFileIsOneLine) {
  const fs::path dir = scratch() / "my-course";
  fs::create_directories(dir);
  const std::string request =
      R"("request": {"workload": "hypot", "n": "1000", "dtype": "f32", "block": "32", "grid": "4"})";
  const std::string seed = R"("seed": {"file": "class.ipynb", "section": "Part 1", "line": 3},)";
  std::ofstream(dir / "good.json") << R"({"launchlab_course": 1, "experiments": [{"id": "my-hypot", "chapter": "My)"
                                      R"( class", "title": "hypot on 1000", )"
                                   << seed << R"("look_for": "Fast.", )" << request << "}]}";
  std::ofstream(dir / "bad.json") << R"({"launchlab_course": 1, "experiments": [{"id": "my-bad", "chapter": "My)"
                                     R"( class", "title": "no look_for", )"
                                  << seed << request << "}]}";
  Out r = cli("course --course-dir '" + dir.string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err,
            "launchlab-cli: --course-dir: " + (dir / "bad.json").string() + ": experiments[0].look_for: missing\n");
  const auto mine = r.out.find("  my-hypot  hypot on 1000");
  ASSERT_NE(mine, std::string::npos) << r.out;
  EXPECT_GT(mine, r.out.find("  tp32-hypot-128x64  "));  // after the built-in course
  EXPECT_EQ(r.out.find("my-bad"), std::string::npos);

  Out only = cli("course --json --course-dir '" + dir.string() + "' --course-dir-only");
  ASSERT_EQ(only.code, 0) << only.err;
  const auto j = nlohmann::json::parse(only.out);
  ASSERT_EQ(j["experiments"].size(), 1u);
  EXPECT_EQ(j["experiments"][0]["request"]["grid"], "4");

  Out run = cli("course run my-hypot --course-dir '" + dir.string() + "' --reps 1 --warmup 0 --json -");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["n"], 1000);

  expectBadInput("course --course-dir /nonexistent/folder", "--course-dir: /nonexistent/folder is not a folder");
  expectBadInput("course --course-dir-only", "--course-dir-only needs --course-dir");
}
