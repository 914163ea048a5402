// The exercises' contracts in Numba's terms (launchlab/numba/numba.h), and the check of a PTX entry against them.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <variant>

#include "embedded_course.h"
#include "launchlab/course/sanitizer.h"
#include "launchlab/engine/workload.h"
#include "launchlab/numba/numba.h"

namespace launchlab {

namespace {

using K = ExerciseArg::Kind;

/// Numba's element type of a contract's C++ pointer or scalar type ("const float*" → "float32").
std::string elementType(std::string type) {
  if (type.rfind("const ", 0) == 0) type = type.substr(6);
  while (!type.empty() && (type.back() == '*' || type.back() == ' ')) type.pop_back();
  static const std::map<std::string, std::string> names = {{"float", "float32"},   {"double", "float64"},
                                                           {"int", "int32"},       {"unsigned int", "uint32"},
                                                           {"long long", "int64"}, {"unsigned long long", "uint64"}};
  const auto it = names.find(type);
  return it == names.end() ? type : it->second;
}

/// Numba's name of a dtype: "f32" → "float32", "u8" → "uint8".
std::string numbaName(DType t) {
  const std::string_view n = dtypeName(t);
  const std::string bits(n.substr(1));
  return (n[0] == 'f' ? "float" : n[0] == 'u' ? "uint" : "int") + bits;
}

bool isMatrixExercise(const Exercise& ex) {
  return std::any_of(ex.args.begin(), ex.args.end(), [](const ExerciseArg& a) { return a.kind == K::Size; });
}

bool hasInputArray(const Exercise& ex) {
  return std::any_of(ex.args.begin(), ex.args.end(), [](const ExerciseArg& a) { return a.kind == K::Input; });
}

/// A matrix's rows and cols as Size argument names: each matrix exercise's arrays, by argument name.
std::pair<std::string, std::string> matrixShape(const Exercise& ex, const ExerciseArg& a) {
  static const std::map<std::string, std::pair<std::string, std::string>> shapes = {
      {"matmul/A", {"m", "k"}},        {"matmul/B", {"k", "n"}},
      {"matmul/C", {"m", "n"}},        {"transpose/transposed", {"cols", "rows"}},
      {"row_normalize/x", {"n", "d"}}, {"row_normalize/y", {"n", "d"}}};
  if (const auto it = shapes.find(ex.id + "/" + a.name); it != shapes.end()) return it->second;
  return {"rows", "cols"};
}

/// The Size argument named `name`, or the run's n (row_normalize's rows are n, which is an N argument there).
bool namesSize(const Exercise& ex, const std::string& name) {
  return std::any_of(ex.args.begin(), ex.args.end(),
                     [&](const ExerciseArg& a) { return a.name == name && (a.kind == K::Size || a.kind == K::N); });
}

/// Contract argument `i` as Numba types it, whether or not numbaArgs passes it.
NumbaArg contractArg(const Exercise& ex, std::size_t i, std::optional<DType> runDtype) {
  // A Python kernel is generic in its arrays' dtype, as the seed's are: the arrays of the exercise's dtype take the
  // run's.
  const std::string written = numbaName(ex.dtype);
  const std::string run = numbaName(runDtype.value_or(ex.dtype));
  const bool matrix = isMatrixExercise(ex);
  const ExerciseArg& a = ex.args[i];
  NumbaArg n;
  n.arg = i;
  switch (a.kind) {
    case K::Input:
    case K::Output:
      if (matrix) std::tie(n.rows, n.cols) = matrixShape(ex, a);
      n.rank = matrix && namesSize(ex, n.rows) && namesSize(ex, n.cols) ? 2 : 1;
      n.type = elementType(a.type);
      if (n.type == written) n.type = run;
      n.type += n.rank == 2 ? "[:, ::1]" : "[::1]";
      break;
    case K::Hits:
      n.rank = 1;
      n.type = "uint64[::1]";
      break;
    case K::N:
    case K::Size:
      n.type = "int64";
      break;
    case K::Param:
      n.type = elementType(a.type);
      break;
    case K::Seed:
      n.type = "uint64";
      break;
  }
  return n;
}

/// A fixed scalar's Numba type and launch-slot bits ("True" → boolean 1, "2" → int64, "0.5" → float64), or none.
std::optional<std::pair<std::string, std::uint64_t>> fixedScalar(const std::string& value) {
  if (value == "True" || value == "False") return std::pair<std::string, std::uint64_t>{"boolean", value == "True"};
  if (value.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  if (value.find_first_of(".eE") == std::string::npos) {
    const long long i = std::strtoll(value.c_str(), &end, 10);
    if (*end != '\0' || errno != 0) return std::nullopt;
    return std::pair<std::string, std::uint64_t>{"int64", static_cast<std::uint64_t>(i)};
  }
  const double d = std::strtod(value.c_str(), &end);
  if (*end != '\0' || errno != 0 || !std::isfinite(d)) return std::nullopt;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &d, sizeof bits);
  return std::pair<std::string, std::uint64_t>{"float64", bits};
}

bool isIdentifier(const std::string& s) {
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

std::optional<std::size_t> argNamed(const Exercise& ex, const std::string& name) {
  for (std::size_t i = 0; i < ex.args.size(); ++i)
    if (ex.args[i].name == name) return i;
  return std::nullopt;
}

std::string argNames(const Exercise& ex) {
  std::string names;
  for (const auto& a : ex.args) names += (names.empty() ? "" : ", ") + a.name;
  return names;
}

/// One word of the list as a kernel argument, or one line saying why not.
std::variant<NumbaArg, std::string> mappedArg(const std::string& w, const Exercise& ex, std::optional<DType> runDtype) {
  if (const auto eq = w.find('='); eq != std::string::npos) {
    const auto fixed = fixedScalar(w.substr(eq + 1));
    if (!fixed || !isIdentifier(w.substr(0, eq)))
      return "'" + w + "' is not NAME=VALUE with VALUE True, False, an integer or a number with a point";
    NumbaArg a;
    a.arg = ex.args.size();
    a.fixedName = w.substr(0, eq);
    std::tie(a.type, a.fixedBits) = *fixed;
    return a;
  }
  const auto lt = w.find('<');
  const auto i = argNamed(ex, w.substr(0, lt));
  if (!i) return "'" + w.substr(0, lt) + "' is not an argument of " + ex.id + " (" + argNames(ex) + ")";
  NumbaArg a = contractArg(ex, *i, runDtype);
  if (lt == std::string::npos) return a;
  const auto from = argNamed(ex, w.substr(lt + 1));
  if (ex.args[*i].kind != K::Output || !from || ex.args[*from].kind != K::Input ||
      contractArg(ex, *from, runDtype).type != a.type)
    return "'" + w + "' is not OUT<IN: an output holding an input of the same type when the kernel starts";
  a.loadedFrom = *from;
  return a;
}

}  // namespace

PythonHeader pythonHeader(std::string_view text, std::string_view key) {
  PythonHeader h;
  std::istringstream in{std::string(text)};
  const std::string prefix = "# " + std::string(key) + ":";
  int number = 0;
  for (std::string line; std::getline(in, line) && line.rfind('#', 0) == 0;) {
    ++number;
    if (line.rfind(prefix, 0) != 0) continue;
    if (h.line == 0) h.line = number;
    std::istringstream w(line.substr(prefix.size()));
    for (std::string word; w >> word;) h.words.push_back(word);
  }
  return h;
}

NumbaKernelArgs numbaKernelArgs(std::string_view source, const Exercise& ex, std::optional<DType> runDtype) {
  NumbaKernelArgs out;
  const PythonHeader h = pythonHeader(source, "arguments");
  out.line = h.line;
  if (h.line == 0) {
    out.args = numbaArgs(ex, runDtype);
    return out;
  }
  auto refuse = [&](const std::string& why) {
    out.args.clear();
    out.error = "# arguments: " + why;
    return out;
  };
  if (h.words.empty()) return refuse("names no argument");
  std::vector<std::size_t> passed;
  for (const std::string& w : h.words) {
    auto a = mappedArg(w, ex, runDtype);
    if (auto* why = std::get_if<std::string>(&a)) return refuse(*why);
    const NumbaArg& arg = std::get<NumbaArg>(a);
    if (!arg.fixedBits && std::find(passed.begin(), passed.end(), arg.arg) != passed.end())
      return refuse("'" + ex.args[arg.arg].name + "' is passed twice");
    if (!arg.fixedBits) passed.push_back(arg.arg);
    out.args.push_back(arg);
  }
  for (std::size_t i = 0; i < ex.args.size(); ++i)
    if ((ex.args[i].kind == K::Output || ex.args[i].kind == K::Hits) &&
        std::find(passed.begin(), passed.end(), i) == passed.end())
      return refuse("the output '" + ex.args[i].name + "' is not passed: the kernel would write nothing");
  return out;
}

std::vector<NumbaArg> numbaArgs(const Exercise& ex, std::optional<DType> runDtype) {
  std::vector<NumbaArg> out;
  // The sizes travel in the arrays (x.size, a.shape) when there is an array to carry them, as in the seed's
  // kernels; an exercise without input arrays (a counter, Monte Carlo's samples) keeps its n.
  const bool sizesInArrays = hasInputArray(ex);
  for (std::size_t i = 0; i < ex.args.size(); ++i) {
    const ExerciseArg& a = ex.args[i];
    if ((a.kind == K::N || a.kind == K::Size) && sizesInArrays) continue;
    // A parameter an array's size already gives (histogram's bins = counts.size) is left out like the sizes.
    if (a.kind == K::Param && a.type == "int" && sizesInArrays && a.name == "bins") continue;
    out.push_back(contractArg(ex, i, runDtype));
  }
  return out;
}

std::string numbaSignature(const std::vector<NumbaArg>& args) {
  std::string s;
  for (const auto& a : args) s += (s.empty() ? "" : ", ") + a.type;
  return s;
}

std::string numbaSignature(const Exercise& ex, std::optional<DType> runDtype) {
  return numbaSignature(numbaArgs(ex, runDtype));
}

std::string numbaDeclaration(const Exercise& ex, const std::vector<NumbaArg>& args, std::string_view kernelName) {
  std::string names;
  for (const auto& a : args) names += (names.empty() ? "" : ", ") + (a.fixedBits ? a.fixedName : ex.args[a.arg].name);
  return "@cuda.jit def " + std::string(kernelName) + "(" + names + ")  # " + numbaSignature(args);
}

std::string numbaDeclaration(const Exercise& ex, std::string_view kernelName) {
  return numbaDeclaration(ex, numbaArgs(ex), kernelName);
}

std::string numbaDeclaration(const UserKernel& k, const Exercise& ex) {
  const NumbaKernelArgs own = numbaKernelArgs(k.source, ex);
  return numbaDeclaration(ex, own.error.empty() ? own.args : numbaArgs(ex), effectiveKernelName(k, ex));
}

std::vector<int> numbaParamBytes(const std::vector<NumbaArg>& args) {
  std::vector<int> bytes;
  for (const auto& a : args) {
    if (a.rank > 0)
      bytes.insert(bytes.end(), std::size_t(5 + 2 * a.rank), 8);
    else if (a.type == "boolean")
      bytes.push_back(1);
    else
      bytes.push_back(a.type == "float32" || a.type == "int32" || a.type == "uint32" ? 4 : 8);
  }
  return bytes;
}

std::vector<int> numbaParamBytes(const Exercise& ex) { return numbaParamBytes(numbaArgs(ex)); }

std::pair<std::uint64_t, std::uint64_t> numbaMatrixShape(const Exercise& ex, const NumbaArg& a, const RunSetup& s) {
  auto value = [&](const std::string& name) -> std::uint64_t {
    for (const auto& e : ex.args)
      if (e.name == name) return e.kind == K::Size ? sizeArgument(e, s) : scalarArgument(e, s).u64;
    return 0;
  };
  return {value(a.rows), value(a.cols)};
}

std::string numbaExerciseFile(const Exercise& ex, bool solution) {
  std::string file = exerciseFile(ex, solution);
  return file.replace(file.size() - 3, 3, ".py");
}

std::string_view numbaExerciseText(const Exercise& ex, bool solution) {
  return embedded::courseFile(numbaExerciseFile(ex, solution));
}

bool isPythonKernel(const UserKernel& k) {
  const std::string& f = k.fileName;
  return f.size() >= 3 && f.compare(f.size() - 3, 3, ".py") == 0;
}

bool kernelUsesSharedMemory(const UserKernel& k) {
  return isPythonKernel(k) ? k.source.find("shared.array") != std::string::npos : usesSharedMemory(k.source);
}

PtxEntry ptxEntryParams(std::string_view ptx, std::string_view entry) {
  PtxEntry e;
  const std::string head = ".entry " + std::string(entry) + "(";
  const auto at = ptx.find(head);
  if (at == std::string_view::npos) return e;
  const auto close = ptx.find(')', at + head.size());
  if (close == std::string_view::npos) return e;
  e.found = true;
  std::string_view list = ptx.substr(at + head.size(), close - at - head.size());
  for (auto p = list.find(".param"); p != std::string_view::npos; p = list.find(".param", p + 6)) {
    auto t = list.find('.', p + 6);
    auto end = t;
    while (end < list.size() && !std::isspace(static_cast<unsigned char>(list[end]))) ++end;
    if (t != std::string_view::npos) e.params.emplace_back(list.substr(t, end - t));
  }
  return e;
}

std::string checkPtxParams(const PtxEntry& entry, const std::vector<NumbaArg>& args) {
  if (!entry.found) return "the PTX has no kernel entry of that name";
  const std::vector<int> want = numbaParamBytes(args);
  if (entry.params.size() != want.size())
    return "the kernel's PTX takes " + std::to_string(entry.params.size()) + " parameters; the exercise's " +
           numbaSignature(args) + " makes " + std::to_string(want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::string& t = entry.params[i];
    const int bits = std::atoi(t.c_str() + std::min<std::size_t>(2, t.size()));
    if (bits != 8 * want[i])
      return "the kernel's PTX parameter " + std::to_string(i) + " is " + t + "; the exercise's " +
             numbaSignature(args) + " needs " + std::to_string(8 * want[i]) + " bits there";
  }
  return {};
}

std::string checkPtxParams(const PtxEntry& entry, const Exercise& ex) { return checkPtxParams(entry, numbaArgs(ex)); }

}  // namespace launchlab
