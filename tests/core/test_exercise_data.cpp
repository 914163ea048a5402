// The exercises as data: every workload folder's exercises.json is sound, each starting file's contract comment
// and dtype are its exercise's, each solution defines that kernel, every starting file has an exercise, and a
// wrong field is one line naming the file and the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>

#include "launchlab/course/exercise.h"

using namespace launchlab;
namespace fs = std::filesystem;

namespace {

/// `text` with every run of whitespace as one space (a declaration may wrap in a solution file).
std::string oneLine(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (!space)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  return out;
}

}  // namespace

TEST(ExerciseData, TheFoldersFilesAreSound) {
  EXPECT_TRUE(exerciseProblems().empty()) << exerciseProblems().front();
  EXPECT_GE(exercises().size(), 12u);
  for (const auto& ex : exercises()) EXPECT_EQ(findExercise(ex.id), &ex) << ex.id << " is not unique";
}

// The starting file states the contract the harness checks: its comment's declaration and dtype are the JSON's.
TEST(ExerciseData, EachStartingFilesContractIsItsExercises) {
  for (const auto& ex : exercises()) {
    SCOPED_TRACE(exerciseFile(ex));
    const std::string_view start = exerciseText(ex), solution = exerciseText(ex, true);
    ASSERT_FALSE(start.empty());
    ASSERT_FALSE(solution.empty());
    const std::string declaration = kernelDeclaration(ex, ex.kernelName);
    EXPECT_NE(start.find("//   " + declaration + "\n"), std::string_view::npos)
        << "the contract comment should read: //   " << declaration;
    std::cmatch dtype;
    const std::regex uses("uses --dtype ([a-z0-9]+)");
    ASSERT_TRUE(std::regex_search(start.data(), start.data() + start.size(), dtype, uses))
        << "the comment names no dtype";
    EXPECT_EQ(parseDType(dtype[1].str()), ex.dtype) << dtype[1].str();
    EXPECT_NE(oneLine(solution).find(oneLine(declaration)), std::string::npos) << "the solution lacks " << declaration;
  }
}

TEST(ExerciseData, EveryStartingFileHasAnExercise) {
  std::size_t files = 0;
  for (const auto& dir : fs::directory_iterator(LAUNCHLAB_KERNELS_DIR)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path())) {
      const std::string name = f.path().filename().string();
      if (name.rfind("exercise", 0) != 0 || f.path().extension() != ".cu" ||
          name.find("_solution") != std::string::npos)
        continue;
      ++files;
      const std::string rel = dir.path().filename().string() + "/" + name;
      EXPECT_TRUE(std::any_of(exercises().begin(), exercises().end(),
                              [&](const Exercise& e) { return exerciseFile(e) == rel; }))
          << rel << " has no entry in its folder's exercises.json";
    }
  }
  EXPECT_EQ(files, exercises().size());
}

TEST(ExerciseData, AWrongFieldIsOneLineNamingIt) {
  const std::string good = R"({"launchlab_exercises": 1, "exercises": [{"id": "hypot", "title": "t",
      "kernel_name": "k", "dtype": "f32", "mirrors": "cuda-grid-stride", "args": [
      {"kind": "input", "index": 0, "type": "const float*", "name": "a"},
      {"kind": "size", "type": "unsigned long long", "name": "cols", "param": "cols"}],
      "launch_2d": {"cols": "cols", "rows": "cols", "block": "32x8", "why": "w"}}]})";
  const ExerciseFile ok = parseExerciseFile("x.json", good, "hypot");
  ASSERT_EQ(ok.problem, "");
  ASSERT_EQ(ok.exercises.size(), 1u);
  EXPECT_EQ(ok.exercises[0].workload, "hypot");
  EXPECT_EQ(ok.exercises[0].args[1].param, "cols");
  EXPECT_EQ(ok.exercises[0].launch2D->autoBlock.y, 8u);
  EXPECT_EQ(ok.exercises[0].checkN, std::uint64_t(1) << 16);  // the default
  auto problemWith = [&](const std::string& from, const std::string& to, const std::string& workload = "hypot") {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return parseExerciseFile("x.json", text, workload).problem;
  };
  EXPECT_EQ(problemWith("\"input\"", "\"vector\""),
            "x.json: exercises[0].args[0].kind: unknown kind 'vector' (input, output, n, param, seed, hits, size)");
  EXPECT_EQ(problemWith("\"index\": 0", "\"index\": -1"),
            "x.json: exercises[0].args[0].index: must be a whole number, 0 or more");
  EXPECT_EQ(problemWith("\"f32\"", "\"f16\"").rfind("x.json: exercises[0].dtype: unknown dtype 'f16'", 0), 0u);
  EXPECT_EQ(problemWith("\"kernel_name\": \"k\",", ""), "x.json: exercises[0].kernel_name: missing");
  EXPECT_EQ(problemWith("\"32x8\"", "\"wide\"").rfind("x.json: exercises[0].launch_2d.block: ", 0), 0u);
  EXPECT_EQ(problemWith("\"hypot\"", "\"hypot2\""), "x.json: exercises[0].id: must be 'hypot' or start with 'hypot_'");
  EXPECT_EQ(parseExerciseFile("x.json", "{", "hypot").problem, "x.json: not valid JSON");
}
