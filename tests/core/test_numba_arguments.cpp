// A Numba kernel's own argument list (launchlab/numba/numba.h, numbaKernelArgs): how a seed notebook's kernel, kept
// unchanged, is passed the exercise's arrays when its parameters differ from the contract's, and the seed kernels
// that use it. No Python needed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "exercise_by_id.h"
#include "launchlab/course/course.h"
#include "launchlab/numba/numba.h"

namespace launchlab {
namespace {

using test::ex;

NumbaKernelArgs argsOf(const std::string& header, const char* exercise, std::optional<DType> dtype = std::nullopt) {
  return numbaKernelArgs(header + "from numba import cuda\n", ex(exercise), dtype);
}

TEST(NumbaArguments, WithoutAListTheContractsArguments) {
  const auto a = argsOf("# exercise: vector_add\n", "vector_add");
  EXPECT_EQ(a.line, 0);
  EXPECT_EQ(a.error, "");
  EXPECT_EQ(numbaSignature(a.args), numbaSignature(ex("vector_add")));
  // Only the leading comment lines are the header: the same words further down are code's business.
  EXPECT_EQ(argsOf("# exercise: vector_add\nx = 1\n# arguments: out\n", "vector_add").line, 0);
}

TEST(NumbaArguments, ACounterWithoutN) {
  const auto a = argsOf("# exercise: atomic_counter\n# arguments: counter\n", "atomic_counter", DType::I32);
  EXPECT_EQ(a.error, "");
  EXPECT_EQ(a.line, 2);
  EXPECT_EQ(numbaSignature(a.args), "int32[::1]");  // the contract's is "int32[::1], int64"
  EXPECT_EQ(numbaParamBytes(a.args), std::vector<int>(7, 8));
}

TEST(NumbaArguments, AFixedFlagTheContractLacks) {
  const auto a = argsOf("# arguments: a b out coalesced=True\n", "matrix_add_2d");
  ASSERT_EQ(a.error, "");
  ASSERT_EQ(a.args.size(), 4u);
  EXPECT_EQ(numbaSignature(a.args), "float32[:, ::1], float32[:, ::1], float32[:, ::1], boolean");
  EXPECT_EQ(a.args[3].fixedName, "coalesced");
  EXPECT_EQ(a.args[3].fixedBits, 1u);
  EXPECT_EQ(numbaParamBytes(a.args).back(), 1);  // Numba passes a boolean as .u8
  EXPECT_EQ(numbaDeclaration(ex("matrix_add_2d"), a.args, "matrix_add"),
            "@cuda.jit def matrix_add(a, b, out, coalesced)  # float32[:, ::1], float32[:, ::1], float32[:, ::1], "
            "boolean");
  const auto values = argsOf("# arguments: a b out off=False stride=-3 scale=0.5\n", "matrix_add_2d");
  ASSERT_EQ(values.error, "");
  EXPECT_EQ(values.args[3].fixedBits, 0u);
  EXPECT_EQ(values.args[4].type, "int64");
  EXPECT_EQ(values.args[4].fixedBits, static_cast<std::uint64_t>(-3));
  EXPECT_EQ(values.args[5].type, "float64");
  double half = 0;
  std::memcpy(&half, &*values.args[5].fixedBits, sizeof half);
  EXPECT_EQ(half, 0.5);
}

TEST(NumbaArguments, AnInPlaceArrayIsTheOutputLoadedFromItsInput) {
  const auto a = argsOf("# arguments: out<x\n", "vector_add", DType::I64);
  ASSERT_EQ(a.error, "");
  ASSERT_EQ(a.args.size(), 1u);
  EXPECT_EQ(ex("vector_add").args[a.args[0].arg].name, "out");
  ASSERT_TRUE(a.args[0].loadedFrom);
  EXPECT_EQ(ex("vector_add").args[*a.args[0].loadedFrom].name, "x");
  EXPECT_EQ(numbaSignature(a.args), "int64[::1]");
}

TEST(NumbaArguments, AScalarTheArraysWouldCarryCanBePassed) {
  const auto a = argsOf("# arguments: x y out n\n", "vector_add");
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(numbaSignature(a.args), "float32[::1], float32[::1], float32[::1], int64");
}

TEST(NumbaArguments, AListThatDoesNotFitIsOneLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"# arguments:\n", "names no argument"},
      {"# arguments: x y z\n", "'z' is not an argument of vector_add (x, y, out, n)"},
      {"# arguments: x x out\n", "'x' is passed twice"},
      {"# arguments: x y\n", "the output 'out' is not passed"},
      {"# arguments: x y out flag=maybe\n", "'flag=maybe' is not NAME=VALUE"},
      {"# arguments: x y out 2x=1\n", "'2x=1' is not NAME=VALUE"},
      {"# arguments: x<out\n", "'x<out' is not OUT<IN"},
      {"# arguments: out<n\n", "'out<n' is not OUT<IN"},
  };
  for (const auto& [header, why] : bad) {
    const auto a = argsOf("# exercise: vector_add\n" + header, "vector_add");
    EXPECT_EQ(a.line, 2) << header;
    EXPECT_TRUE(a.args.empty()) << header;
    EXPECT_EQ(a.error.rfind("# arguments: ", 0), 0u) << a.error;
    EXPECT_NE(a.error.find(why), std::string::npos) << header << " -> " << a.error;
  }
  // An in-place pair of different element types: histogram's counts (uint32) cannot hold x (float32).
  EXPECT_NE(argsOf("# arguments: counts<x xmin xmax\n", "histogram").error.find("not OUT<IN"), std::string::npos);
}

TEST(NumbaArguments, APtxEntryIsCheckedAgainstTheList) {
  const auto a = argsOf("# arguments: a b out coalesced=True\n", "matrix_add_2d");
  PtxEntry e;
  e.found = true;
  e.params.assign(27, ".u64");
  e.params.push_back(".u8");
  EXPECT_EQ(checkPtxParams(e, a.args), "");
  EXPECT_NE(checkPtxParams(e, ex("matrix_add_2d")).find("takes 28 parameters"), std::string::npos);
  e.params.back() = ".u64";
  EXPECT_NE(checkPtxParams(e, a.args).find("parameter 27 is .u64"), std::string::npos);
}

TEST(NumbaArguments, TheDeclarationOfAKernelFollowsItsList) {
  UserKernel k;
  k.fileName = "seed_add_one.py";
  k.source = "# arguments: out<x\nfrom numba import cuda\n";
  EXPECT_EQ(numbaDeclaration(k, ex("vector_add")), "@cuda.jit def vector_add(out)  # float32[::1]");
  k.source = "# arguments: nothing-of-the-kind\n";  // a list that does not fit: the contract's (the compile says why)
  EXPECT_EQ(numbaDeclaration(k, ex("vector_add")), numbaDeclaration(ex("vector_add"), "vector_add"));
}

TEST(NumbaArguments, AListThatDoesNotFitIsOneErrorAtItsLineBeforePythonRuns) {
  UserKernel k;
  k.fileName = "seed.py";
  k.source = "# exercise: vector_add\n# arguments: x y\nfrom numba import cuda\n";
  NumbaOptions o;
  o.python = "/nonexistent/python3";  // never started: a run of it would make the result unavailable
  o.cacheDir = "-";
  const auto r = compileNumbaKernel(k, ex("vector_add"), "sm_90", o);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.unavailable, "");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].file, "seed.py");
  EXPECT_EQ(r.diagnostics[0].line, 2);
  EXPECT_NE(r.diagnostics[0].text.find("the output 'out' is not passed"), std::string::npos);
}

// ---- The seed kernels -----------------------------------------------------------------------------------------

TEST(NumbaSeeds, EveryListFitsItsExercise) {
  for (const auto& k : seedNumbaKernels()) {
    const auto a = numbaKernelArgs(k.text, ex(k.exercise.c_str()));
    EXPECT_EQ(a.error, "") << k.path;
    EXPECT_FALSE(a.args.empty()) << k.path;
  }
}

TEST(NumbaSeeds, TwelveExperimentsFromTheThreeLanguagesNotebooks) {
  std::set<std::string> experiments, files;
  for (const auto& k : seedNumbaKernels()) {
    for (const auto& id : k.experiments) EXPECT_TRUE(experiments.insert(id).second) << id << " has two seed kernels";
    const std::string first(k.text.substr(0, k.text.find('\n')));
    const auto at = first.find(".txt:");
    ASSERT_NE(at, std::string::npos) << k.path << ": the first line names the seed's file and line";
    files.insert(first.substr(at - 20, 3));  // "000_945c5bbc964fcfb4.txt" → "000"
  }
  EXPECT_GE(experiments.size(), 12u);
  EXPECT_TRUE(files.count("000")) << "TP 3.1 + TP 3.2 (French)";
  EXPECT_TRUE(files.count("001")) << "the Spanish notes";
  EXPECT_TRUE(files.count("002") || files.count("003") || files.count("004")) << "an English notebook";
  // The kernels whose parameters differ from the contract's run through their lists.
  for (const char* id : {"tp32-atomic-counter", "es-atomic-counter-4x128", "es-matrix-add-2d", "s3-add-one"}) {
    const auto k = seedNumbaKernelFor(id);
    ASSERT_TRUE(k) << id;
    EXPECT_GT(pythonHeader(k->text, "arguments").line, 0) << id;
  }
}

/// The seed notebooks: $LAUNCHLAB_SEEDS_DIR (a worktree elsewhere), else shared/seeds beside the checkout; "" when
/// neither is there.
std::string seedsDir() {
  if (const char* given = std::getenv("LAUNCHLAB_SEEDS_DIR"); given && std::filesystem::is_directory(given))
    return given;
  const auto dir = std::filesystem::path(LAUNCHLAB_KERNELS_DIR).parent_path().parent_path() / "shared" / "seeds";
  return std::filesystem::is_directory(dir) ? dir.string() : std::string();
}

TEST(NumbaSeeds, TheKernelTextIsTheSeedsUnchanged) {
  const std::string dir = seedsDir();
  if (dir.empty()) GTEST_SKIP() << "no shared/seeds beside the checkout";
  for (const auto& k : seedNumbaKernels()) {
    const std::string first(k.text.substr(0, k.text.find('\n')));
    const auto at = first.find(".txt:");
    ASSERT_NE(at, std::string::npos) << k.path;
    std::ifstream in(dir + "/" + first.substr(at - 20, 24), std::ios::binary);
    std::ostringstream seed;
    seed << in.rdbuf();
    ASSERT_FALSE(seed.str().empty()) << k.path << ": " << first;
    // From the decorator on, the file is the seed's text: the header and the imports above it are LaunchLab's.
    const std::string_view body = k.text.substr(k.text.find("@cuda.jit"));
    EXPECT_NE(seed.str().find(body), std::string::npos) << k.path;
  }
}

}  // namespace
}  // namespace launchlab
