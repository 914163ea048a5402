// launchlab-cli with kernels written in Numba (.py): one line for a missing Python or a seed kernel that does not
// exist; with a Python that has numba-cuda (else skipped, saying why), the Python exercise files compile and print
// their Numba contract, and `instrument` counts the accesses of Numba's PTX at the Python lines.
#include "cli_helpers.h"
#include "launchlab/course/exercise.h"
#include "launchlab/numba/numba.h"
#include "launchlab/worker/subprocess.h"

namespace launchlab::test {
namespace {

std::string numbaPython() {
  static const std::string found = [] {
    const std::string p = findPython("");
    return captureCommand({p, "-c", "import numba.cuda"}, 60).status == 0 ? p : std::string();
  }();
  return found;
}

TEST(CliNumba, APythonFileWithoutPythonIsOneLine) {
  const fs::path f = scratch() / "no_python.py";
  std::ofstream(f) << "from numba import cuda\n\n@cuda.jit\ndef vector_add(x, y, out):\n    pass\n";
  const Out r = cli("compile vector_add --kernel-file '" + f.string() + "' --python /nonexistent/python3");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("launchlab-cli: no Python at '/nonexistent/python3'; install numba-cuda", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliNumba, InstrumentWithoutPythonIsOneLine) {
  const Out r = cli("instrument vector_add --kernel-file '" + kKernels +
                    "/vector_add/exercise_solution.py' --python /nonexistent/python3");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("launchlab-cli: --kernel-file: no Python at '/nonexistent/python3'; install numba-cuda", 0), 0u)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliNumba, ASeedKernelThatIsNotThereIsOneLine) {
  const Out r = cli("course run tp31-add-ufunc --numba");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--numba: tp31-add-ufunc has no seed Numba kernel in its lesson folder (those that have one: "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("tp32-add-kernel"), std::string::npos) << r.err;
}

TEST(CliNumba, ThePythonSolutionCompilesAndStatesItsContract) {
  if (numbaPython().empty())
    GTEST_SKIP() << "no Python with numba-cuda (" << findPython("")
                 << "): scripts/setup.sh makes .venv with it, or set LAUNCHLAB_PYTHON";
  ::setenv("LAUNCHLAB_CACHE_DIR", (scratch() / "cache").c_str(), 1);  // the PTX cache of this test, not the user's
  const Exercise& ex = *findExercise("histogram");
  const std::string file = kKernels + "/histogram/exercise_solution.py";
  const Out r = cli("compile histogram --kernel-file '" + file + "' --python '" + numbaPython() + "'");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("compiled " + file + " for sm_"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(numbaDeclaration(ex, ex.kernelName)), std::string::npos) << r.out;
}

TEST(CliNumba, InstrumentCountsNumbasAccessesAtThePythonLines) {
  if (numbaPython().empty())
    GTEST_SKIP() << "no Python with numba-cuda (" << findPython("")
                 << "): scripts/setup.sh makes .venv with it, or set LAUNCHLAB_PYTHON";
  ::setenv("LAUNCHLAB_CACHE_DIR", (scratch() / "cache").c_str(), 1);
  const fs::path ptx = scratch() / "instrumented.ptx";
  // The 2-D tile transpose: global loads and stores, and the shared tile, each at the line that writes it.
  const Out r = cli("instrument transpose --kernel-file '" + kKernels + "/transpose/exercise_solution.py' --python '" +
                    numbaPython() + "' --ptx-out '" + ptx.string() + "'");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("kernel tile_transpose\n"), std::string::npos) << r.out;
  for (const char* row : {"exercise_solution.py:12 global 4 B load       counted",
                          "exercise_solution.py:12 shared 4 B store      counted",
                          "exercise_solution.py:17 shared 4 B load       counted",
                          "exercise_solution.py:17 global 4 B store      counted"})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  EXPECT_NE(r.out.find("4 memory accesses, 4 counted, 0 not counted (PTX for sm_"), std::string::npos) << r.out;
  std::ifstream in(ptx);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(".entry"), std::string::npos);
  EXPECT_NE(text.find("__launchlab_access_counters"), std::string::npos);
}

}  // namespace
}  // namespace launchlab::test
