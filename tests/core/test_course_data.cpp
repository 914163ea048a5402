// The course as data: every workload folder has its lesson, the built-in course files are sound and name workloads
// that exist, and an instructor's folder loads beside the course with each bad file refused in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/restore_course.h"
#include "launchlab/course/course.h"
#include "launchlab/course/lesson.h"
#include "launchlab/engine/registry.h"
#include "launchlab/kernels.h"

using namespace launchlab;
namespace fs = std::filesystem;

namespace {

const fs::path kKernels = LAUNCHLAB_KERNELS_DIR;

Registry& registry() {
  static Registry r = [] {
    Registry reg;
    kernels::registerAllWorkloads(reg);
    return reg;
  }();
  return r;
}

using test::RestoreCourse;
using test::writeFile;

fs::path courseFolder(const std::string& name) { return test::freshFolder("course_data_" + name); }

std::string experiment(const std::string& id, const std::string& lookFor) {
  return R"({"id": ")" + id + R"(", "chapter": "My class", "title": "A title",
    "seed": {"file": "class.ipynb", "section": "Part 1", "line": 3},)" +
         (lookFor.empty() ? "" : R"("look_for": ")" + lookFor + R"(",)") +
         R"("request": {"workload": "hypot", "n": "1000", "dtype": "f32", "block": "32", "grid": "4"}})";
}

std::string file(const std::string& experiments) {
  return R"({"launchlab_course": 1, "experiments": [)" + experiments + "]}";
}

}  // namespace

TEST(CourseData, EveryWorkloadFolderHasItsLesson) {
  std::size_t folders = 0;
  for (const auto& w : registry().all()) {
    const std::string& id = w->info().id;
    if (!fs::is_directory(kKernels / id)) continue;  // the user-kernel runner has no folder
    ++folders;
    EXPECT_TRUE(fs::is_regular_file(kKernels / id / "lesson.md")) << id;
    EXPECT_FALSE(lessonOf(id).lookFor.empty()) << id << ": no lesson compiled in";
    EXPECT_FALSE(lessonOf(id).seedNote.empty()) << id;
  }
  EXPECT_GE(folders, 28u);
  EXPECT_TRUE(lessonProblems().empty()) << lessonProblems().front();
  for (const auto& id : lessonWorkloads())
    EXPECT_NE(registry().find(id), nullptr) << id << " has a lesson, no workload";
}

TEST(CourseData, TheBuiltInCourseIsSoundAndNamesWorkloadsThatExist) {
  EXPECT_TRUE(builtinCourseProblems().empty()) << builtinCourseProblems().front();
  ASSERT_FALSE(courseExperiments().empty());
  for (const auto& e : courseExperiments()) {
    EXPECT_NE(registry().find(e.request.workload), nullptr) << e.id << ": no workload " << e.request.workload;
    // An experiment lives in its workload's folder.
    std::ifstream in(kKernels / e.request.workload / "experiments.json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"" + e.id + "\""), std::string::npos) << e.id;
  }
}

TEST(CourseData, ALessonNeedsBothSections) {
  const ParsedLesson ok = parseLesson("x/lesson.md",
                                      "# x\n\n## What to look for\n\nOne line\nwrapped.\n\n## In the "
                                      "course\n\nThe seed.\n\n## Notes\n\nMore.\n");
  EXPECT_EQ(ok.problem, "");
  EXPECT_EQ(ok.lesson.lookFor, "One line wrapped.");
  EXPECT_EQ(ok.lesson.seedNote, "The seed.");
  const ParsedLesson bad = parseLesson("x/lesson.md", "# x\n\n## What to look for\n\nText.\n");
  EXPECT_EQ(bad.problem, "x/lesson.md: section '## In the course': missing or empty");
}

TEST(CourseData, AFileWithAMissingFieldIsRefusedNamingFileAndField) {
  const CourseFile f = parseCourseFile("my/extra.json", file(experiment("a", "x") + "," + experiment("b", "")));
  EXPECT_TRUE(f.experiments.empty());
  EXPECT_EQ(f.problem, "my/extra.json: experiments[1].look_for: missing");
  EXPECT_EQ(parseCourseFile("p.json", "{").problem, "p.json: not valid JSON");
  EXPECT_EQ(parseCourseFile("p.json", R"({"launchlab_course": 2, "experiments": []})").problem,
            "p.json: launchlab_course: must be 1");
  const std::string wrongType = file(experiment("a", "x"));
  EXPECT_EQ(
      parseCourseFile("p.json", std::string(wrongType).replace(wrongType.find("\"line\": 3"), 9, "\"line\": \"3\""))
          .problem,
      "p.json: experiments[0].seed.line: must be a whole number");
}

TEST(CourseData, CountersAreCatalogueIdsAndTheMemoryLessonsHaveThem) {
  std::string one = experiment("a", "x");
  one.insert(one.rfind('}'), R"(, "counters": ["bank_conflicts", "dram_bytes"])");
  const CourseFile good = parseCourseFile("c.json", file(one));
  ASSERT_EQ(good.problem, "");
  EXPECT_EQ(good.experiments.at(0).counters, (std::vector<std::string>{"bank_conflicts", "dram_bytes"}));
  std::string typo = experiment("a", "x");
  typo.insert(typo.rfind('}'), R"(, "counters": ["bank_conflict"])");
  EXPECT_EQ(parseCourseFile("c.json", file(typo)).problem,
            "c.json: experiments[0].counters[0]: unknown counter 'bank_conflict' (see 'launchlab-cli profile --help')");
  for (const char* id : {"es-coalescing", "es-col-sums", "es-matrix-add-2d", "es-tile-transpose"}) {
    const CourseExperiment* e = findCourseExperiment(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_FALSE(e->counters.empty()) << id;
    EXPECT_NE(e->lookFor.find("With Counters on"), std::string::npos) << id;  // the number to look for
  }
}

TEST(CourseData, AnInstructorsFolderFollowsTheCourseAndABadFileLeavesTheOthers) {
  RestoreCourse restore;
  const std::size_t builtIn = courseExperiments().size();
  const fs::path dir = courseFolder("instructor");
  writeFile(dir / "a_good.json", file(experiment("my-two", "Second.") + "," + experiment("my-one", "First.")));
  writeFile(dir / "b_bad.json", file(experiment("my-bad", "")));
  writeFile(dir / "c_dup.json", file(experiment("tp32-hypot-128x64", "Taken.")));
  writeFile(dir / "notes.txt", "not a course file");
  const auto problems = useCourseDir(dir.string(), false);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0], (dir / "b_bad.json").string() + ": experiments[0].look_for: missing");
  EXPECT_EQ(problems[1],
            (dir / "c_dup.json").string() + ": experiments[0].id: 'tp32-hypot-128x64' is already in the course");
  const auto& all = courseExperiments();
  ASSERT_EQ(all.size(), builtIn + 2);
  EXPECT_EQ(all[builtIn].id, "my-two");  // same place: the file's order is kept
  EXPECT_EQ(all[builtIn + 1].id, "my-one");
  ASSERT_NE(findCourseExperiment("my-one"), nullptr);
  EXPECT_EQ(findCourseExperiment("my-one")->request.block, "32");
  EXPECT_EQ(findCourseExperiment("my-bad"), nullptr);

  // --course-dir-only: the folder's alone, where an id of the built-in course is free.
  EXPECT_EQ(useCourseDir(dir.string(), true).size(), 1u);
  EXPECT_EQ(courseExperiments().size(), 3u);
  EXPECT_EQ(useCourseDir((dir / "missing").string(), false),
            std::vector<std::string>{(dir / "missing").string() + ": not a folder"});
  EXPECT_EQ(courseExperiments().size(), 3u);  // left as it was
}

TEST(CourseData, NotesAndSweepsAreReadAndCheckedByField) {
  const std::string withBoth = R"({"launchlab_course": 1, "experiments": [{"id": "a", "chapter": "C", "title": "T",
      "seed": {"file": "f", "section": "s", "line": 2}, "look_for": "x",
      "request": {"workload": "hypot", "n": "1000", "dtype": "f32"}, "sweep": {"dtype": "f32,f64", "param:k": "1,2"}}],
    "notes": [{"id": "n", "chapter": "C", "title": "A note", "seed": {"file": "f", "section": "s", "line": 1},
      "text": "The seed prints 683 ns.", "command": "info"}]})";
  const CourseFile f = parseCourseFile("p.json", withBoth);
  ASSERT_EQ(f.problem, "");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_EQ(f.notes[0].text, "The seed prints 683 ns.");
  EXPECT_EQ(f.notes[0].command, "info");
  EXPECT_EQ(f.experiments[0].sweep.at("dtype"), "f32,f64");
  const RequestText swept = sweepRequestText(f.experiments[0]);
  EXPECT_EQ(swept.dtype, "f32,f64");
  EXPECT_EQ(swept.params.at("k"), "1,2");
  EXPECT_EQ(f.experiments[0].request.dtype, "f32");  // the request stays one runnable point

  auto problemWith = [&](const std::string& from, const std::string& to) {
    std::string t = withBoth;
    t.replace(t.find(from), from.size(), to);
    return parseCourseFile("p.json", t).problem;
  };
  EXPECT_EQ(problemWith("\"param:k\"", "\"colour\""),
            "p.json: experiments[0].sweep.colour: not a request field (n, dtype, block, grid, param:<name>)");
  EXPECT_EQ(problemWith("\"command\": \"info\"", "\"command\": \"rm\""),
            "p.json: notes[0].command: must be \"info\" or absent");
  EXPECT_EQ(problemWith("\"text\": \"The seed prints 683 ns.\",", ""), "p.json: notes[0].text: missing");
}

TEST(CourseData, TheBuiltInCourseListsNotesInPlaceAndReadmeCountsThem) {
  const auto entries = courseInOrder();
  ASSERT_EQ(entries.size(), courseExperiments().size() + courseNotes().size());
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const SeedRef& a = entries[i - 1].experiment ? entries[i - 1].experiment->seed : entries[i - 1].note->seed;
    const SeedRef& b = entries[i].experiment ? entries[i].experiment->seed : entries[i].note->seed;
    EXPECT_FALSE(beforeInCourse(b, a)) << i;
  }
  // README's counts are lower bounds, so that an added experiment stays a change of one file; they hold.
  std::ifstream in(kKernels / ".." / "README.md");
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string claim = "`launchlab-cli course` lists more than ";
  const auto at = readme.find(claim);
  ASSERT_NE(at, std::string::npos) << "README.md: " << claim << "N experiments and M notes";
  std::size_t experiments = 0, notes = 0;
  ASSERT_EQ(std::sscanf(readme.c_str() + at + claim.size(), "%zu experiments and %zu notes", &experiments, &notes), 2);
  EXPECT_GT(courseExperiments().size(), experiments);
  EXPECT_GT(courseNotes().size(), notes);
}

TEST(CourseData, TheCourseClaimsNoRatioTheSeedsDoNotMake) {
  auto noTwoX = [](const std::string& text, const std::string& where) {
    for (const char* claim : {"2x faster", "2x slower", "2× faster", "2× slower", "copy speed."})
      EXPECT_EQ(text.find(claim), std::string::npos) << where << ": " << claim;
  };
  for (const auto& e : courseExperiments()) noTwoX(e.lookFor + " " + e.differs, e.id);
  for (const auto& id : lessonWorkloads()) noTwoX(lessonOf(id).lookFor + " " + lessonOf(id).seedNote, id);
  // The ATLAS experiments of which seed 004 holds only a schedule line or a heading say so.
  for (const char* id : {"atlas-z-mass", "atlas-tree-reduction", "atlas-histogram-private",
                         "atlas-histogram-contention", "atlas-mc-circle", "atlas-mc-mandelbrot-area"}) {
    const CourseExperiment* e = findCourseExperiment(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_NE(e->differs.find("The seed (004)"), std::string::npos) << id;
    EXPECT_EQ(e->differs.find("the seed's figure"), std::string::npos) << id;
  }
}
