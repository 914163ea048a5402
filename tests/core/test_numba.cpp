// Kernels written in Numba (launchlab/numba/numba.h): the exercises' Numba contracts, the PTX entry check, the compile
// helper run through fake Pythons (hangs, garbage, no numba: always run), and, where a Python with numba-cuda
// exists (scripts/setup.sh makes .venv; or LAUNCHLAB_PYTHON), every exercise file compiled to PTX by Numba.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "exercise_by_id.h"
#include "launchlab/course/course.h"
#include "launchlab/numba/numba.h"
#include "launchlab/worker/subprocess.h"

namespace launchlab {
namespace {

namespace fs = std::filesystem;

using test::ex;

/// A folder of fake Pythons and cache files for one test, removed afterwards.
class Scratch {
 public:
  Scratch() {
    std::string t = (fs::temp_directory_path() / "launchlab-numba-test-XXXXXX").string();
    m_dir = ::mkdtemp(t.data()) ? t : std::string();
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }
  /// An executable shell script named `name` with `body`, standing in for a Python.
  std::string script(const std::string& name, const std::string& body) const {
    const std::string path = m_dir + "/" + name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path.c_str(), 0755);
    return path;
  }
  std::string file(const std::string& name, const std::string& text) const {
    const std::string path = m_dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  const std::string& dir() const { return m_dir; }

 private:
  std::string m_dir;
};

UserKernel pyKernel(std::string source, std::string file = "my.py") {
  UserKernel k;
  k.fileName = std::move(file);
  k.source = std::move(source);
  return k;
}

NumbaOptions with(const std::string& python, double limitS = 30) {
  NumbaOptions o;
  o.python = python;
  o.timeLimitS = limitS;
  o.cacheDir.assign(1, '-');  // not = "-": GCC 12 warns falsely on that inlined in a unity batch (bug 105651)
  return o;
}

/// The PTX of an entry with `params` 64-bit parameters, as the helper would answer it (JSON-escaped).
std::string fakeAnswer(int params, const std::string& entry = "fake") {
  std::string ptx = ".visible .entry " + entry + "(\\n";
  for (int i = 0; i < params; ++i)
    ptx += "\\t.param .u64 " + entry + "_param_" + std::to_string(i) + (i + 1 < params ? ",\\n" : "\\n");
  ptx += ")\\n{\\n\\tret;\\n}\\n";
  return "LAUNCHLAB-NUMBA {\"ok\": true, \"ptx\": \"" + ptx + "\", \"entry\": \"" + entry + "\", \"line\": 3}";
}

const char* kVectorAdd =
    "from numba import cuda\n\n@cuda.jit\ndef vector_add(x, y, out):\n    i = cuda.grid(1)\n"
    "    if i < x.size:\n        out[i] = x[i] + y[i]\n";

TEST(NumbaContract, ArraysCarryTheirSizesAsInTheSeed) {
  EXPECT_EQ(numbaSignature(ex("vector_add")), "float32[::1], float32[::1], float32[::1]");
  EXPECT_EQ(numbaSignature(ex("histogram")), "float32[::1], float32, float32, uint32[::1]");
  EXPECT_EQ(numbaSignature(ex("matmul")), "float32[:, ::1], float32[:, ::1], float32[:, ::1]");
  EXPECT_EQ(numbaSignature(ex("row_normalize")), "float32[:, ::1], float32[:, ::1]");
  // No input array to carry n: the counter and Monte Carlo keep it.
  EXPECT_EQ(numbaSignature(ex("atomic_counter")), "int32[::1], int64");
  EXPECT_EQ(numbaSignature(ex("monte_carlo_pi")), "uint64, int64, uint64[::1]");
  EXPECT_EQ(numbaDeclaration(ex("transpose"), "tile_transpose"),
            "@cuda.jit def tile_transpose(a, transposed)  # float32[:, ::1], float32[:, ::1]");
}

TEST(NumbaContract, ArrayModelGivesFivePlusTwoRankParameters) {
  EXPECT_EQ(numbaParamBytes(ex("vector_add")), std::vector<int>(21, 8));
  EXPECT_EQ(numbaParamBytes(ex("matrix_add_2d")).size(), 27u);
  const auto hist = numbaParamBytes(ex("histogram"));
  ASSERT_EQ(hist.size(), 16u);
  EXPECT_EQ(hist[7], 4);  // xmin: float32
  EXPECT_EQ(hist[8], 4);
}

TEST(NumbaContract, EveryExerciseHasOne) {
  for (const auto& e : exercises()) EXPECT_FALSE(numbaArgs(e).empty()) << e.id;
}

TEST(NumbaSeeds, EachNamesItsExperimentsAndExercise) {
  const auto seeds = seedNumbaKernels();
  EXPECT_GE(seeds.size(), 4u);
  for (const auto& k : seeds) {
    EXPECT_NE(findExercise(k.exercise), nullptr) << k.path;
    EXPECT_FALSE(k.experiments.empty()) << k.path;
    for (const auto& id : k.experiments) {
      const CourseExperiment* e = findCourseExperiment(id);
      ASSERT_NE(e, nullptr) << k.path << ": " << id;
      EXPECT_EQ(e->request.workload, findExercise(k.exercise)->workload) << id;
    }
    EXPECT_NE(k.text.find("@cuda.jit"), std::string_view::npos) << k.path;
  }
  ASSERT_TRUE(seedNumbaKernelFor("tp32-add-kernel"));
  EXPECT_EQ(seedNumbaKernelFor("tp32-add-kernel")->path, "kernels/vector_add/seed_add_kernel.py");
  EXPECT_FALSE(seedNumbaKernelFor("no-such-experiment"));
}

TEST(NumbaPtx, EntryParametersAreReadAndChecked) {
  std::string ptx = ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .f32 k_param_1\n)\n{\n}\n";
  const PtxEntry e = ptxEntryParams(ptx, "k");
  ASSERT_TRUE(e.found);
  EXPECT_EQ(e.params, (std::vector<std::string>{".u64", ".f32"}));
  EXPECT_FALSE(ptxEntryParams(ptx, "other").found);
  EXPECT_NE(checkPtxParams(e, ex("vector_add")).find("takes 2 parameters"), std::string::npos);
  PtxEntry hist;
  hist.found = true;
  hist.params.assign(16, ".u64");
  EXPECT_NE(checkPtxParams(hist, ex("histogram")).find("parameter 7 is .u64"), std::string::npos);
  hist.params[7] = hist.params[8] = ".f32";
  EXPECT_EQ(checkPtxParams(hist, ex("histogram")), "");
}

TEST(NumbaKernelFile, PythonByItsName) {
  EXPECT_TRUE(isPythonKernel(pyKernel("x", "dir/my.py")));
  EXPECT_FALSE(isPythonKernel(pyKernel("x", "my.cu")));
  EXPECT_FALSE(isPythonKernel(pyKernel("x", "py")));
}

TEST(NumbaHelper, IsCompiledIn) {
  EXPECT_NE(numbaHelperSource().find("compile_ptx"), std::string_view::npos);
  EXPECT_NE(numbaHelperSource().find("LAUNCHLAB-NUMBA "), std::string_view::npos);
}

// Bad input and misbehaving helpers: one line each, whatever Python is installed.

TEST(NumbaHostile, FilesAreRefusedBeforePythonRuns) {
  Scratch s;
  const std::string hangs = s.script("hangs", "exec sleep 30");
  const auto big = compileNumbaKernel(pyKernel(std::string(10u << 20, 'a')), ex("vector_add"), "sm_90", with(hangs));
  EXPECT_NE(big.unavailable.find("the limit is"), std::string::npos) << big.unavailable;
  const auto bin = compileNumbaKernel(pyKernel("x = 1\n\xff\xfe\n"), ex("vector_add"), "sm_90", with(hangs));
  EXPECT_NE(bin.unavailable.find("not text"), std::string::npos) << bin.unavailable;
}

TEST(NumbaHostile, AHelperThatHangsIsStopped) {
  Scratch s;
  const auto r = compileNumbaKernel(pyKernel(kVectorAdd), ex("vector_add"), "sm_90",
                                    with(s.script("hangs", "exec sleep 30"), 0.3));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.unavailable.find("did not finish within"), std::string::npos) << r.unavailable;
}

TEST(NumbaHostile, GarbageIsRefused) {
  Scratch s;
  auto o = with(s.script("floods", "exec yes garbage"));
  o.maxOutputBytes = 1u << 20;
  const auto flood = compileNumbaKernel(pyKernel(kVectorAdd), ex("vector_add"), "sm_90", o);
  EXPECT_NE(flood.unavailable.find("printed more than 1 MiB: refused"), std::string::npos) << flood.unavailable;
  const auto chatter = compileNumbaKernel(pyKernel(kVectorAdd), ex("vector_add"), "sm_90",
                                          with(s.script("chatters", "echo hello from a Python")));
  EXPECT_NE(chatter.unavailable.find("gave no answer (it printed 'hello from a Python')"), std::string::npos)
      << chatter.unavailable;
  const auto noPtx = compileNumbaKernel(pyKernel(kVectorAdd), ex("vector_add"), "sm_90",
                                        with(s.script("lies", "echo 'LAUNCHLAB-NUMBA {\"ok\": true}'")));
  EXPECT_NE(noPtx.unavailable.find("has no PTX: refused"), std::string::npos) << noPtx.unavailable;
}

TEST(NumbaHostile, AMissingPythonSaysHowToInstall) {
  const auto r = compileNumbaKernel(pyKernel(kVectorAdd), ex("vector_add"), "sm_90", with("/nonexistent/python3"));
  EXPECT_NE(r.unavailable.find("no Python at '/nonexistent/python3'"), std::string::npos) << r.unavailable;
  EXPECT_NE(r.unavailable.find("pip install numba-cuda"), std::string::npos) << r.unavailable;
}

TEST(NumbaHostile, APythonWithoutNumbaSaysHowToInstall) {
  if (captureCommand({"python3", "-c", "pass"}, 30).status != 0) GTEST_SKIP() << "no python3 on PATH";
  Scratch s;
  // -S: no site-packages, so no numba whatever this machine has installed.
  const auto r = compileNumbaKernel(pyKernel(kVectorAdd), ex("vector_add"), "sm_90",
                                    with(s.script("bare", "exec python3 -S \"$@\"")));
  EXPECT_NE(r.unavailable.find("has no usable numba-cuda"), std::string::npos) << r.unavailable;
  EXPECT_NE(r.unavailable.find("scripts/setup.sh"), std::string::npos) << r.unavailable;
}

TEST(NumbaHostile, AnEntryThatDiffersFromTheContractIsOneErrorAtTheDefLine) {
  Scratch s;
  const std::string answer = s.file("answer", fakeAnswer(14) + "\n");
  const auto r = compileNumbaKernel(pyKernel(kVectorAdd), ex("vector_add"), "sm_90",
                                    with(s.script("short", "cat '" + answer + "'")));
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.unavailable;
  EXPECT_EQ(r.diagnostics[0].line, 3);
  EXPECT_NE(r.diagnostics[0].text.find("takes 14 parameters"), std::string::npos) << r.diagnostics[0].text;
}

TEST(NumbaCache, TheSecondCompileRunsNoPython) {
  Scratch s;
  const std::string answer = s.file("answer", fakeAnswer(21) + "\n");
  const std::string count = s.dir() + "/runs";
  const std::string python = s.script("counts", "echo run >> '" + count + "'; cat '" + answer + "'");
  NumbaOptions o = with(python);
  o.cacheDir = s.dir() + "/cache";
  const UserKernel k = pyKernel(std::string(kVectorAdd) + "# cache test " + s.dir() + "\n");
  const auto first = compileNumbaKernel(k, ex("vector_add"), "sm_90", o);
  ASSERT_TRUE(first.ok) << first.unavailable;
  EXPECT_FALSE(first.cached);
  const auto second = compileNumbaKernel(k, ex("vector_add"), "sm_90", o);
  ASSERT_TRUE(second.ok);
  EXPECT_TRUE(second.cached);
  EXPECT_GT(second.compileMs, 0.0);  // the lookup's own time, which `compile` prints
  EXPECT_EQ(second.cubin, first.cubin);
  std::ifstream runs(count);
  std::string all((std::istreambuf_iterator<char>(runs)), {});
  EXPECT_EQ(all, "run\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(o.cacheDir), fs::directory_iterator()), 1);
  // Another architecture is another compile.
  EXPECT_FALSE(compileNumbaKernel(k, ex("vector_add"), "sm_80", o).cached);
}

// With a real Numba: every exercise file, and Numba's own errors at their lines.

/// The Python with numba-cuda the build would use, or "" (the tests below are then skipped, saying why).
std::string numbaPython() {
  static const std::string found = [] {
    const std::string p = findPython("");
    return captureCommand({p, "-c", "import numba.cuda"}, 60).status == 0 ? p : std::string();
  }();
  return found;
}

#define REQUIRE_NUMBA()                                           \
  if (numbaPython().empty())                                      \
  GTEST_SKIP() << "no Python with numba-cuda (" << findPython("") \
               << "): scripts/setup.sh makes .venv with it, or set LAUNCHLAB_PYTHON"

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(NumbaExercises, EveryFileCompilesToItsContract) {
  REQUIRE_NUMBA();
  // One helper run for all of them: Numba's import is paid once.
  std::vector<NumbaJob> jobs;
  for (const auto& e : exercises())
    for (bool solution : {false, true}) {
      std::string rel = exerciseFile(e, solution);
      rel.replace(rel.size() - 3, 3, ".py");
      const std::string text = readFile(std::string(LAUNCHLAB_KERNELS_DIR).append("/").append(rel));
      EXPECT_FALSE(text.empty()) << rel;
      jobs.push_back({pyKernel(text, rel), &e, "sm_90"});
    }
  for (const auto& seed : seedNumbaKernels())
    jobs.push_back({pyKernel(std::string(seed.text), seed.path), findExercise(seed.exercise), "sm_90"});
  const auto results = compileNumbaKernels(jobs, with(numbaPython(), 600));
  ASSERT_EQ(results.size(), jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const auto& r = results[i];
    const std::string& file = jobs[i].kernel.fileName;
    EXPECT_TRUE(r.ok) << file << ": " << r.unavailable
                      << (r.diagnostics.empty() ? "" : formatDiagnostic(r.diagnostics[0]));
    // A seed kernel whose parameters differ from the contract's is checked against its own list.
    const auto own = numbaKernelArgs(jobs[i].kernel.source, *jobs[i].exercise);
    EXPECT_EQ(checkPtxParams(ptxEntryParams(r.cubin, r.loweredName), own.args), "") << file;
    EXPECT_NE(r.cubin.find(".target sm_90"), std::string::npos) << file;
  }
}

TEST(NumbaSeeds, EveryExperimentsSeedKernelCompilesForItsRun) {
  REQUIRE_NUMBA();
  // The experiments `course run ID --numba` runs the seed's kernel in, each compiled as that run compiles it: for
  // the experiment's dtype, against the contract of the exercise the seed names.
  std::vector<NumbaJob> jobs;
  std::vector<std::string> ids;
  for (const auto& seed : seedNumbaKernels())
    for (const auto& id : seed.experiments) {
      const CourseExperiment* e = findCourseExperiment(id);
      ASSERT_NE(e, nullptr) << id;
      jobs.push_back({pyKernel(std::string(seed.text), seed.path), findExercise(seed.exercise), "sm_90",
                      parseDType(e->request.dtype)});
      ids.push_back(id);
    }
  for (const char* id : {"tp32-add-kernel", "tp32-no-synchronize", "tp32-grid-stride-add", "tp32-launch-heuristics",
                         "tp32-atomic-counter", "es-suma-kernel", "es-suma-elementwise", "es-atomic-counter-4x128",
                         "es-matrix-add-2d", "es-tile-transpose", "s3-cai-add", "s3-add-one"})
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  const auto results = compileNumbaKernels(jobs, with(numbaPython(), 600));
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    EXPECT_TRUE(results[i].ok) << ids[i] << ": " << results[i].unavailable
                               << (results[i].diagnostics.empty() ? "" : formatDiagnostic(results[i].diagnostics[0]));
    // Against the arguments the run passes: the seed's own list (numbaKernelArgs) where its parameters differ.
    const auto own = numbaKernelArgs(jobs[i].kernel.source, *jobs[i].exercise, jobs[i].dtype);
    EXPECT_EQ(own.error, "") << ids[i];
    EXPECT_EQ(checkPtxParams(ptxEntryParams(results[i].cubin, results[i].loweredName), own.args), "") << ids[i];
  }
}

TEST(NumbaErrors, OneLineAtThePythonLine) {
  REQUIRE_NUMBA();
  const std::string head = "from numba import cuda\n\n@cuda.jit\n";
  const std::vector<std::string> sources = {
      head + "def vector_add(x, y, out)\n    pass\n",
      head + "def vector_add(x, y, out):\n    i = cuda.grid(1)\n    out[i] = x[i] + 'text'\n",
      head + "def a(x, y, out):\n    pass\n\n@cuda.jit\ndef b(x, y, out):\n    pass\n",
      "from numba import cuda\n\ndef vector_add(x, y, out):\n    pass\n", head + "def vector_add(x, y):\n    pass\n"};
  std::vector<NumbaJob> jobs;
  for (const auto& s : sources) jobs.push_back({pyKernel(s), &ex("vector_add"), "sm_90"});
  const auto results = compileNumbaKernels(jobs, with(numbaPython(), 600));
  std::vector<Diagnostic> d;
  for (const auto& r : results) {
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.unavailable, "");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    d.push_back(r.diagnostics[0]);
  }
  EXPECT_EQ(d[0].line, 4);
  EXPECT_NE(d[0].text.find("SyntaxError"), std::string::npos) << d[0].text;
  EXPECT_EQ(d[1].line, 6);
  EXPECT_NE(d[1].text.find("TypingError"), std::string::npos) << d[1].text;
  EXPECT_NE(d[2].text.find("2 @cuda.jit kernels in the file (a at line 4, b at line 8)"), std::string::npos)
      << d[2].text;
  EXPECT_NE(d[3].text.find("no @cuda.jit kernel"), std::string::npos) << d[3].text;
  EXPECT_EQ(d[4].line, 4);
  EXPECT_NE(d[4].text.find("vector_add(x, y) takes 2 arguments; the exercise passes 3"), std::string::npos)
      << d[4].text;
}

}  // namespace
}  // namespace launchlab
