// The student-kernel contract: NVRTC log parsing on real NVRTC 13 logs, the contract check's messages, source
// checks, the request's kernel through validation and the worker's wire format.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "launchlab/course/exercise.h"
#include "launchlab/course/nvrtc.h"
#include "launchlab/engine/engine.h"
#include "launchlab/kernels.h"
#include "launchlab/worker/wire.h"

namespace launchlab {
namespace {

// Logs as NVRTC 13.0 printed them for the files in the comments (tests/cli compiles such files for real).
constexpr const char* kSyntaxLog =
    "a.cu(3): error: expected a \";\"\n"
    "    if (i < n) out[i] = x[i] + y[i] + zz;\n"
    "    ^\n"
    "\n"
    "a.cu(2): warning #177-D: variable \"i\" was declared but never referenced\n"
    "    unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x\n"
    "                       ^\n"
    "\n"
    "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
    "\n"
    "1 error detected in the compilation of \"a.cu\".\n";

constexpr const char* kSignatureLog =
    "b.cu(3): warning #177-D: variable \"unused\" was declared but never referenced\n"
    "    int unused;\n"
    "        ^\n"
    "\n"
    "launchlab-contract(3): error: static assertion failed with \"launchlab-signature\"\n"
    "  static_assert(launchlab_same_<decltype(&vector_add), void (*)(const float*)>::value, \"launchlab-signature\");\n"
    "  ^\n"
    "\n"
    "1 error detected in the compilation of \"b.cu\".\n";

constexpr const char* kHostHeaderLog =
    "c.cu(1): catastrophic error: could not open source file \"vector\" (no directories in search list)\n"
    "  #include <vector>\n"
    "                   ^\n"
    "\n"
    "1 catastrophic error detected in the compilation of \"c.cu\".\n"
    "Compilation terminated.\n";

TEST(NvrtcLog, ParsesErrorsAndWarningsWithColumns) {
  const auto d = parseNvrtcLog(kSyntaxLog);
  ASSERT_EQ(d.size(), 2u);
  // "  if (i < n)": the statement starts at column 3 (the caret under it, NVRTC's 2-space indent removed).
  EXPECT_EQ(d[0], (Diagnostic{"a.cu", 3, 3, "error", "expected a \";\""}));
  EXPECT_EQ(d[1], (Diagnostic{"a.cu", 2, 22, "warning", "variable \"i\" was declared but never referenced"}));
  EXPECT_TRUE(d[0].isError());
  EXPECT_FALSE(d[1].isError());
  EXPECT_EQ(formatDiagnostic(d[0]), "a.cu:3:3: error: expected a \";\"");
}

TEST(NvrtcLog, CatastrophicErrorAndNoiseLines) {
  const auto d = parseNvrtcLog(kHostHeaderLog);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, "catastrophic error");
  EXPECT_EQ(d[0].line, 1);
  EXPECT_EQ(d[0].column, 18);
  EXPECT_TRUE(d[0].isError());
  EXPECT_TRUE(parseNvrtcLog("Compilation terminated.\nfoo(x): error: y\n(3): error: z\n").empty());
}

TEST(NvrtcLog, ContractFailureBecomesOneClearError) {
  const Exercise& ex = *findExercise("vector_add");
  const auto d = explainContract(parseNvrtcLog(kSignatureLog), ex, "vector_add", "b.cu");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].severity, "warning");
  EXPECT_EQ(formatDiagnostic(d[1]),
            "b.cu:1:1: error: wrong kernel signature: the exercise expects __global__ void vector_add(const float* x, "
            "const float* y, float* out, unsigned long long n)");
  // An error of the student's own comes alone: the check then fails only as its echo.
  const auto own = explainContract(parseNvrtcLog(std::string(kSyntaxLog) + kSignatureLog), ex, "vector_add", "a.cu");
  ASSERT_EQ(own.size(), 3u);
  EXPECT_EQ(own[0].text, "expected a \";\"");
  // A kernel that does not exist (NVRTC's name-expression file complains first).
  const auto missing = explainContract({{"__nv_name_map", 2, 25, "error", "Error in parsing name expression"}}, ex,
                                       "vector_add", "m.cu");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].text.rfind("no kernel named 'vector_add'", 0), 0u) << missing[0].text;
}

TEST(Exercises, ContractTableAndSourceChecks) {
  EXPECT_GE(exercises().size(), 12u);
  const Exercise* hist = findExercise("histogram");
  ASSERT_TRUE(hist);
  EXPECT_EQ(parameterTypes(*hist), "const float*, unsigned long long, float, float, int, unsigned int*");
  EXPECT_EQ(defaultExercise("vector_add")->id, "vector_add");
  EXPECT_EQ(defaultExercise("vector_add_grid_stride"), nullptr);  // not a workload
  EXPECT_TRUE(findExercise("vector_add_grid_stride")->gridStride);
  EXPECT_EQ(checkKernelSource(" \n\t"), "the kernel file is empty");
  EXPECT_EQ(checkKernelSource(std::string("a\0b", 3)), "the kernel file is not text (NUL bytes or invalid UTF-8)");
  EXPECT_EQ(checkKernelSource("caf\xc3"), "the kernel file is not text (NUL bytes or invalid UTF-8)");
  EXPECT_EQ(checkKernelSource("// caf\xc3\xa9\n__global__ void k() {}"), "");
  EXPECT_EQ(checkKernelSource(std::string(kMaxKernelSourceBytes + 1, 'a')),
            "the kernel file has 262145 bytes; the limit is 256 KiB");
  EXPECT_EQ(archFor(9, 0), "sm_90");
  EXPECT_EQ(archFor(8, 6), "sm_86");
}

RunRequest withKernel(const std::string& workload, const std::string& exercise = "") {
  RunRequest r;
  r.workload = workload;
  r.userKernel = UserKernel{exercise, "my.cu", "__global__ void k() {}", "", 10};
  return r;
}

class UserKernelRequest : public ::testing::Test {
 protected:
  void SetUp() override { kernels::registerAllWorkloads(registry); }
  Registry registry;
};

TEST_F(UserKernelRequest, ValidationNamesTheField) {
  Engine engine(registry, nullptr);
  EXPECT_TRUE(engine.validate(withKernel("vector_add")).empty());
  RunRequest only = withKernel("vector_add", "vector_add_grid_stride");
  only.impls = {"my-kernel"};
  EXPECT_TRUE(engine.validate(only).empty());
  RunRequest f64 = withKernel("vector_add");
  f64.dtype = DType::F64;
  const auto p = engine.validate(f64);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].field, "dtype");
  EXPECT_EQ(p[0].message, "the kernel of exercise vector_add is written for f32: use --dtype f32");
  EXPECT_EQ(engine.validate(withKernel("vector_add", "hypot")).at(0).message,
            "exercise 'hypot' runs in workload hypot");
  EXPECT_EQ(engine.validate(withKernel("mandelbrot")).at(0).field, "kernel");
  RunRequest ring = withKernel("monte_carlo_pi");
  ring.params["shape"] = "ring";
  EXPECT_EQ(engine.validate(ring).at(0).field, "param:shape");
  RunRequest noKernel;
  noKernel.workload = "vector_add";
  noKernel.impls = {"my-kernel"};
  EXPECT_EQ(engine.validate(noKernel).at(0).field, "impl");
}

TEST_F(UserKernelRequest, CpuOnlyBuildSkipsMyKernelWithTheReason) {
  if (kernels::builtWithCuda()) GTEST_SKIP() << "a CUDA build runs my-kernel (tests/gpu)";
  Engine engine(registry, nullptr);
  RunRequest r = withKernel("vector_add");
  r.n = 1000;
  r.impls = {"my-kernel"};
  const RunResult res = engine.run(r);
  const ImplResult* mine = res.find("my-kernel");
  ASSERT_TRUE(mine);
  EXPECT_EQ(mine->status, Status::Skipped);
  EXPECT_EQ(mine->title, "My kernel (my.cu)");
}

// Every exercise fits its workload: the arrays, Size and Param arguments, outputs taken from the reference and the
// mirrored built-in variant all exist there; the dtype is one the workload runs.
TEST_F(UserKernelRequest, EveryExerciseFitsItsWorkload) {
  for (const auto& ex : exercises()) {
    SCOPED_TRACE(ex.id);
    const Workload* w = registry.find(ex.workload);
    ASSERT_TRUE(w);
    const WorkloadInfo& info = w->info();
    auto hasParam = [&](const std::string& name) {
      return std::any_of(info.params.begin(), info.params.end(), [&](const ParamSpec& p) { return p.name == name; });
    };
    for (const auto& a : ex.args) {
      const bool fits = a.kind == ExerciseArg::Kind::Input    ? std::size_t(a.index) < info.inputs.size()
                        : a.kind == ExerciseArg::Kind::Output ? std::size_t(a.index) < info.outputs.size()
                        : a.kind == ExerciseArg::Kind::Param  ? hasParam(a.name)
                        : a.kind == ExerciseArg::Kind::Size   ? a.param.empty() || hasParam(a.param)
                                                              : true;
      EXPECT_TRUE(fits) << a.name;
    }
    for (const auto& o : ex.outputsFromReference)
      EXPECT_TRUE(std::any_of(info.outputs.begin(), info.outputs.end(), [&](const ArraySpec& s) {
        return s.name == o;
      })) << o;
    const auto& impls = w->impls();
    EXPECT_TRUE(std::any_of(impls.begin(), impls.end(), [&](const ImplSpec& i) { return i.id == ex.mirrors; }))
        << ex.mirrors;
    EXPECT_NE(std::find(info.dtypes.begin(), info.dtypes.end(), ex.dtype), info.dtypes.end());
    if (ex.launch2D) {  // the grid's axes are Size arguments
      RunSetup s{.n = 7};
      std::string error;
      s.params = resolveParams(info.params, {}, error).value();
      EXPECT_EQ(launchExtent(ex, s), (std::pair<std::uint64_t, std::uint64_t>{7, 7}));  // the defaults: square
    }
  }
}

// `launchlab-cli check` runs an exercise at its check size: one a sanitized run finishes in seconds (the matrix
// exercises' n is their rows, so 64Ki there would be a 65536^2 problem), and one its workload accepts.
TEST_F(UserKernelRequest, EveryExerciseHasACheckSizeItsWorkloadAccepts) {
  EXPECT_EQ(findExercise("matmul")->checkN, 256u);
  EXPECT_EQ(findExercise("transpose")->checkN, 1024u);
  EXPECT_EQ(findExercise("matrix_add_2d")->checkN, 1024u);
  Engine engine(registry, nullptr);
  for (const auto& ex : exercises()) {
    SCOPED_TRACE(ex.id);
    EXPECT_GE(ex.checkN, 1u);
    EXPECT_LE(ex.checkN, std::uint64_t(1) << 16);
    RunRequest r = withKernel(ex.workload, ex.id);
    r.n = ex.checkN;
    r.dtype = ex.dtype;
    const auto problems = engine.validate(r);
    EXPECT_TRUE(problems.empty()) << problems.front().message;
  }
  EXPECT_EQ(exerciseFor("vector_add", ""), findExercise("vector_add"));
  EXPECT_EQ(exerciseFor("vector_add", "vector_add_grid_stride"), findExercise("vector_add_grid_stride"));
  EXPECT_EQ(exerciseFor("mandelbrot", ""), nullptr);
}

// A kernel of your own with a parameter that does not resolve (monte_carlo_pi's samples per thread cleared or 0, as
// the window's form gives while the student types): one problem naming the field, never an exception, since the
// window validates on every change and a throw there ends it.
TEST_F(UserKernelRequest, AnInvalidParameterIsAProblemNotAnException) {
  Engine engine(registry, nullptr);
  for (const char* bad : {"0", "", "many", "-3"}) {
    SCOPED_TRACE(std::string("iters = '") + bad + "'");
    RunRequest r = withKernel("monte_carlo_pi");
    r.params["iters"] = bad;
    std::vector<RequestProblem> problems;
    EXPECT_NO_THROW(problems = engine.validate(r));
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems.front().field, "param:iters");
  }
  RunRequest shape = withKernel("monte_carlo_pi");
  shape.params["shape"] = "bogus";  // not a choice at all: the parameter's own message, not the exercise's
  std::vector<RequestProblem> problems;
  EXPECT_NO_THROW(problems = engine.validate(shape));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems.front().field, "param:shape");
  EXPECT_EQ(problems.front().message.find("the kernel of exercise"), std::string::npos) << problems.front().message;
}

RunSetup matrixRun(std::uint64_t n, std::map<std::string, double> numbers) {
  RunSetup s{.n = n};
  for (const auto& [name, v] : numbers) s.params.setNumber(name, v);
  return s;
}

std::vector<unsigned long long> sizes(const Exercise& ex, const RunSetup& s) {
  std::vector<unsigned long long> out;
  for (const auto& a : ex.args)
    if (a.kind == ExerciseArg::Kind::N || a.kind == ExerciseArg::Kind::Size) out.push_back(scalarArgument(a, s).u64);
  return out;
}

// The scalars a 2-D exercise's kernel gets, in order, and the matrix its grid covers (cols x rows).
TEST(ExerciseArguments, MatrixSizesAndTheirLaunch) {
  const Exercise& tr = *findExercise("transpose");
  EXPECT_EQ(parameterTypes(tr), "const float*, float*, unsigned long long, unsigned long long");
  EXPECT_EQ(sizes(tr, matrixRun(3, {{"cols", 5}})), (std::vector<unsigned long long>{3, 5}));  // rows, cols
  EXPECT_EQ(sizes(tr, matrixRun(4, {{"cols", 0}})), (std::vector<unsigned long long>{4, 4}));  // 0: square
  EXPECT_EQ(launchExtent(tr, matrixRun(3, {{"cols", 5}})), (std::pair<std::uint64_t, std::uint64_t>{5, 3}));
  EXPECT_EQ(tr.launch2D->autoBlock, (Dim3{32, 32, 1}));
  // matmul: m = n, k and n from the parameters k and cols, each 0 meaning m; the grid covers C (n x m).
  const Exercise& mm = *findExercise("matmul");
  EXPECT_EQ(kernelDeclaration(mm, mm.kernelName),
            "__global__ void fast_matmul(const float* A, const float* B, float* C, unsigned long long m, "
            "unsigned long long k, unsigned long long n)");
  EXPECT_EQ(sizes(mm, matrixRun(4, {{"k", 0}, {"cols", 6}})), (std::vector<unsigned long long>{4, 4, 6}));
  EXPECT_EQ(sizes(mm, matrixRun(4, {{"k", 9}, {"cols", 0}})), (std::vector<unsigned long long>{4, 9, 4}));
  EXPECT_EQ(launchExtent(mm, matrixRun(4, {{"k", 9}, {"cols", 6}})), (std::pair<std::uint64_t, std::uint64_t>{6, 4}));
  EXPECT_EQ(launchExtent(*findExercise("matrix_add_2d"), matrixRun(2, {{"cols", 8}})),
            (std::pair<std::uint64_t, std::uint64_t>{8, 2}));
  // row_normalize is 1-D over its rows; d is the parameter.
  const Exercise& rn = *findExercise("row_normalize");
  EXPECT_FALSE(rn.launch2D.has_value());
  EXPECT_EQ(sizes(rn, matrixRun(32, {{"d", 3}})), (std::vector<unsigned long long>{32, 3}));
  EXPECT_EQ(launchExtent(rn, matrixRun(32, {{"d", 3}})), (std::pair<std::uint64_t, std::uint64_t>{32, 1}));
}

TEST(ExerciseArguments, ParamsAndSeedKeepTheirTypes) {
  const Exercise& h = *findExercise("histogram");
  RunSetup s = matrixRun(100, {{"xmin", -4}, {"xmax", 4.5}, {"bins", 10}});
  EXPECT_EQ(scalarArgument(h.args[2], s).f32, -4.0f);
  EXPECT_EQ(scalarArgument(h.args[3], s).f32, 4.5f);
  EXPECT_EQ(scalarArgument(h.args[4], s).i32, 10);
  s.seed = 0x123456789abcULL;
  EXPECT_EQ(scalarArgument(findExercise("monte_carlo_pi")->args[0], s).u64, 0x123456789abcULL);
}

// A kernel of the 1-D shape handed to a 2-D exercise is one clear error naming the expected signature.
TEST(NvrtcLog, WrongSignatureOfA2DExercise) {
  const Exercise& ex = *findExercise("transpose");
  const auto d = explainContract(
      {{std::string(kContractFile), 3, 1, "error", "static assertion failed with \"launchlab-signature\""}}, ex,
      "tile_transpose", "t.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(formatDiagnostic(d[0]),
            "t.cu:1:1: error: wrong kernel signature: the exercise expects __global__ void tile_transpose(const float* "
            "a, float* transposed, unsigned long long rows, unsigned long long cols)");
  EXPECT_NE(contractAppendix(ex, "tile_transpose")
                .find("void (*)(const float*, float*, unsigned long long, unsigned long long)"),
            std::string::npos);
}

TEST(WireUserKernel, RoundTrip) {
  RunRequest r;
  r.workload = "histogram";
  r.userKernel =
      UserKernel{"histogram", "h.cu", "__global__ void cuda_histogram() {}\n// \"quoted\" caf\xc3\xa9", "k2", 2.5};
  const RunRequest back = wire::decodeRequest(wire::encodeRequest(r));
  ASSERT_TRUE(back.userKernel.has_value());
  EXPECT_EQ(*back.userKernel, *r.userKernel);
  r.userKernel.reset();
  EXPECT_FALSE(wire::decodeRequest(wire::encodeRequest(r)).userKernel.has_value());
}

}  // namespace
}  // namespace launchlab
