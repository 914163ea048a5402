#include "launchlab/course/exercise.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "embedded_course.h"
#include "launchlab/engine/workload.h"
#include "launchlab/files/bounded_file.h"
#include "launchlab/files/parse.h"

namespace launchlab {

namespace {

using K = ExerciseArg::Kind;

struct Loaded {
  std::vector<Exercise> exercises;
  std::vector<std::string> problems;
};

/// The workload folders' exercises.json files (compiled in, embedded_course.h), in the order of their paths.
const Loaded& loaded() {
  static const Loaded l = [] {
    Loaded out;
    for (const auto& [workload, file] : embedded::filesNamed("exercises.json")) {
      ExerciseFile f = parseExerciseFile("kernels/" + std::string(file->path), file->text(), std::string(workload));
      if (!f.problem.empty()) out.problems.push_back(f.problem);
      for (auto& e : f.exercises) out.exercises.push_back(std::move(e));
    }
    return out;
  }();
  return l;
}

}  // namespace

const std::vector<Exercise>& exercises() { return loaded().exercises; }

const std::vector<std::string>& exerciseProblems() { return loaded().problems; }

const Exercise* findExercise(std::string_view id) {
  for (const auto& e : exercises())
    if (e.id == id) return &e;
  return nullptr;
}

const Exercise* exerciseFor(std::string_view workload, std::string_view exerciseId) {
  return exerciseId.empty() ? defaultExercise(workload) : findExercise(exerciseId);
}

const Exercise* defaultExercise(std::string_view workload) {
  const Exercise* e = findExercise(workload);
  return e && e->workload == workload ? e : nullptr;
}

std::string exerciseFile(const Exercise& ex, bool solution) {
  // The id is the workload's, or the workload's followed by "_<suffix>" (parseExerciseFile keeps that so).
  const std::string suffix = ex.id.size() > ex.workload.size() ? ex.id.substr(ex.workload.size()) : "";
  return ex.workload + "/exercise" + suffix + (solution ? "_solution" : "") + ".cu";
}

std::string_view exerciseText(const Exercise& ex, bool solution) {
  return embedded::courseFile(exerciseFile(ex, solution));
}

std::uint64_t sizeArgument(const ExerciseArg& a, const RunSetup& s) {
  if (a.param.empty()) return s.n;
  const long long v = s.params.integer(a.param);
  return v > 0 ? static_cast<std::uint64_t>(v) : s.n;
}

ExerciseScalar scalarArgument(const ExerciseArg& a, const RunSetup& s) {
  ExerciseScalar v{};
  switch (a.kind) {
    case K::N:
      v.u64 = s.n;
      break;
    case K::Size:
      v.u64 = sizeArgument(a, s);
      break;
    case K::Seed:
      v.u64 = s.seed;
      break;
    case K::Param:
      if (a.type == "float")
        v.f32 = float(s.params.number(a.name));
      else if (a.type == "int")
        v.i32 = int(s.params.number(a.name));
      else
        v.u64 = static_cast<unsigned long long>(s.params.number(a.name));
      break;
    case K::Input:
    case K::Output:
    case K::Hits:
      break;
  }
  return v;
}

std::pair<std::uint64_t, std::uint64_t> launchExtent(const Exercise& ex, const RunSetup& s) {
  if (!ex.launch2D) return {s.n, 1};
  std::uint64_t cols = 0, rows = 0;
  for (const auto& a : ex.args) {
    if (a.kind != K::Size) continue;
    if (a.name == ex.launch2D->cols) cols = sizeArgument(a, s);
    if (a.name == ex.launch2D->rows) rows = sizeArgument(a, s);
  }
  return {cols, rows};
}

std::string parameterTypes(const Exercise& ex) {
  std::string s;
  for (const auto& a : ex.args) s += (s.empty() ? "" : ", ") + a.type;
  return s;
}

std::string kernelDeclaration(const Exercise& ex, std::string_view kernelName) {
  std::string s = "__global__ void " + std::string(kernelName) + "(";
  for (std::size_t i = 0; i < ex.args.size(); ++i) {
    const auto& a = ex.args[i];
    s += (i ? ", " : "") + a.type + " " + a.name;
  }
  return s + ")";
}

std::string effectiveKernelName(const UserKernel& k, const Exercise& ex) {
  return k.kernelName.empty() ? ex.kernelName : k.kernelName;
}

namespace {

bool validUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0 || i + std::size_t(extra) >= s.size() + (extra == 0 ? 1 : 0)) return false;
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + std::size_t(k)]) >> 6) != 0x2) return false;
    i += std::size_t(extra) + 1;
  }
  return true;
}

}  // namespace

std::string kernelSizeProblem(std::size_t bytes) {
  return "the kernel file has " + std::to_string(bytes) + " bytes; the limit is " +
         std::to_string(kMaxKernelSourceBytes / 1024) + " KiB";
}

KernelFileText readKernelFile(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);  // a regular file's: says how far past the limit it is
  if (!ec && size > kMaxKernelSourceBytes) return {{}, kernelSizeProblem(std::size_t(size))};
  files::FileBytes read = files::readBoundedFile(path, kMaxKernelSourceBytes);
  if (!read.ok()) return {{}, read.error};
  return {std::move(read.bytes), {}};
}

std::string checkKernelSource(std::string_view source) {
  if (source.size() > kMaxKernelSourceBytes) return kernelSizeProblem(source.size());
  if (source.find('\0') != std::string_view::npos || !validUtf8(source))
    return "the kernel file is not text (NUL bytes or invalid UTF-8)";
  if (std::all_of(source.begin(), source.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
    return "the kernel file is empty";
  return {};
}

std::string contractAppendix(const Exercise& ex, std::string_view kernelName) {
  const std::string name(kernelName);
  return "\n#line 1 \"" + std::string(kContractFile) + "\"\n" +
         "template <class A, class B> struct launchlab_same_ { enum { value = 0 }; };\n"
         "template <class A> struct launchlab_same_<A, A> { enum { value = 1 }; };\n"
         "static_assert(launchlab_same_<decltype(&" +
         name + "), void (*)(" + parameterTypes(ex) + ")>::value, \"launchlab-signature\");\n";
}

namespace {

/// "file(12): error: text" or "file(12): warning #177-D: text" → a diagnostic without column; false otherwise.
bool parseHeadLine(std::string_view line, Diagnostic& d) {
  const auto open = line.find('(');
  const auto close = line.find("): ", open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || open == 0 || close == std::string_view::npos) return false;
  const std::string_view num = line.substr(open + 1, close - open - 1);
  if (num.empty() || num.size() > 9 ||
      !std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  const std::string_view rest = line.substr(close + 3);
  const auto colon = rest.find(": ");
  if (colon == std::string_view::npos) return false;
  std::string sev(trim(rest.substr(0, colon)));
  if (const auto hash = sev.find(" #"); hash != std::string::npos) sev.resize(hash);  // "warning #177-D"
  if (sev != "error" && sev != "warning" && sev != "catastrophic error" && sev != "remark") return false;
  d = Diagnostic{std::string(line.substr(0, open)), std::stoi(std::string(num)), 0, sev,
                 std::string(trim(rest.substr(colon + 2)))};
  return true;
}

std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

/// NVRTC prints the source line indented by 2 and a caret under the column: the caret's offset - 2, 1-based.
int caretColumn(std::string_view caretLine) {
  const auto pos = caretLine.find('^');
  if (pos == std::string_view::npos || caretLine.find_first_not_of(' ') != pos) return 0;
  return pos >= 2 ? int(pos) - 1 : 1;
}

}  // namespace

std::vector<Diagnostic> parseNvrtcLog(std::string_view log) {
  std::vector<Diagnostic> out;
  const auto ls = lines(log);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    Diagnostic d;
    if (!parseHeadLine(ls[i], d)) continue;
    if (i + 2 < ls.size()) d.column = caretColumn(ls[i + 2]);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<Diagnostic> explainContract(std::vector<Diagnostic> diags, const Exercise& ex, std::string_view kernelName,
                                        std::string_view fileName) {
  std::vector<Diagnostic> out;
  // Errors in the student's own file come first: the check then fails only as their echo.
  bool explained = std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) {
    return d.isError() && d.file != kContractFile && d.file != "__nv_name_map";
  });
  for (auto& d : diags) {
    // NVRTC's own file of name expressions fails when the kernel does not exist: the same as the check.
    const bool check = d.file == kContractFile || d.file == "__nv_name_map";
    if (!check) {
      if (d.text.rfind("could not open source file", 0) == 0)
        d.text +=
            ": kernels are compiled for the device alone, host headers (<vector>, <iostream>, ...) do not exist "
            "there";
      out.push_back(std::move(d));
      continue;
    }
    if (explained || !d.isError()) continue;
    explained = true;
    const bool missing = d.text.find("is undefined") != std::string::npos || d.file != kContractFile;
    const std::string want = kernelDeclaration(ex, kernelName);
    std::string text = missing ? "no kernel named '" + std::string(kernelName) + "': the exercise expects " + want
                               : "wrong kernel signature: the exercise expects " + want;
    if (!missing && d.text.find("launchlab-signature") == std::string::npos) text += " (" + d.text + ")";
    out.push_back({std::string(fileName), 1, 1, "error", text});
  }
  return out;
}

std::string formatDiagnostic(const Diagnostic& d) {
  std::string s = d.file + ":" + std::to_string(d.line) + ":";
  if (d.column > 0) s += std::to_string(d.column) + ":";
  return s + " " + d.severity + ": " + d.text;
}

}  // namespace launchlab
