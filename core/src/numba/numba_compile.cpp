// Compiling a .py kernel with Numba: the helper run in a Python with numba-cuda (launchlab/numba/numba.h), its answer
// checked, and the PTX cached per file content, signature and architecture.
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "launchlab/files/atomic_file.h"
#include "launchlab/numba/numba.h"
#include "launchlab/worker/subprocess.h"

namespace launchlab::kernels {
std::string_view numbaHelperText();  // generated from resources/python/launchlab_numba.py (cmake/EmbedText.cmake)
}

namespace launchlab {

namespace {

constexpr std::string_view kMark = "LAUNCHLAB-NUMBA ";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

/// FNV-1a over the parts, each followed by a NUL, as 16 hex digits.
std::string cacheKey(std::initializer_list<std::string_view> parts) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::string_view p : parts) {
    for (unsigned char c : p) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0u) * 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

/// "sm_90" → "9.0", "sm_120" → "12.0".
std::string ccOf(const std::string& arch) {
  std::string digits = arch.rfind("sm_", 0) == 0 ? arch.substr(3) : arch;
  if (digits.size() < 2) return "9.0";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

/// The compiled kernels of this process, by cache key.
struct MemoryCache {
  std::mutex mutex;
  std::map<std::string, NumbaCompileResult> entries;
};
MemoryCache& memoryCache() {
  static MemoryCache c;
  return c;
}

/// A private temporary folder for the kernels' texts, removed on scope exit.
class TempFolder {
 public:
  TempFolder() {
    const std::string dir = env("TMPDIR");
    std::string tmpl = (dir.empty() ? std::string("/tmp") : dir) + "/launchlab-numba-XXXXXX";
    if (::mkdtemp(tmpl.data())) m_dir = tmpl;
  }
  ~TempFolder() {
    std::error_code ec;
    if (!m_dir.empty()) std::filesystem::remove_all(m_dir, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  /// Writes `text` as file `i`; its path, or "" when it cannot be written.
  std::string write(std::size_t i, const std::string& text) const {
    if (m_dir.empty()) return {};
    const std::string path = m_dir + "/kernel" + std::to_string(i) + ".py";
    try {
      files::writeAtomic(path, text);
    } catch (const std::exception&) {
      return {};
    }
    return path;
  }

 private:
  std::string m_dir;
};

/// The kernel's file name in messages.
std::string displayName(const UserKernel& k) { return k.fileName.empty() ? "kernel.py" : k.fileName; }

void addError(NumbaCompileResult& r, const std::string& file, int line, std::string text) {
  r.ok = false;
  r.diagnostics.push_back({file, line > 0 ? line : 1, 0, "error", std::move(text)});
}

/// The helper's answer lines, in order (one per file).
std::vector<std::string> answerLines(const std::string& output) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(kMark, 0) == 0) lines.push_back(line.substr(kMark.size()));
  return lines;
}

std::string quoted(const std::string& output) {
  std::string first = output.substr(0, output.find('\n'));
  if (first.size() > 120) first = first.substr(0, 120) + "...";
  for (char& c : first)
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
  return first.empty() ? "nothing" : "'" + first + "'";
}

/// Reads the helper's JSON answer into `r`. Returns "" or why the answer is refused.
std::string takeAnswer(const std::string& line, const UserKernel& k, const Exercise& ex,
                       const std::vector<NumbaArg>& args, NumbaCompileResult& r) {
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean()) return "its answer is not LaunchLab's JSON";
  const std::string file = displayName(k);
  if (j.contains("unavailable") && j["unavailable"].is_string()) {
    r.unavailable = j["unavailable"].get<std::string>() + "; " + numbaInstallHint();
    return {};
  }
  const int line_ = j.contains("line") && j["line"].is_number_integer() ? j["line"].get<int>() : 0;
  if (!j["ok"].get<bool>()) {
    const std::string kind = j.value("kind", "");
    std::string text = j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>() : "error";
    if (kind == "contract")
      text += " (the exercise's kernel: " + numbaDeclaration(ex, args, effectiveKernelName(k, ex)) + ")";
    addError(r, file, line_, text);
    return {};
  }
  if (!j.contains("ptx") || !j["ptx"].is_string() || !j.contains("entry") || !j["entry"].is_string())
    return "its answer has no PTX";
  r.cubin = j["ptx"].get<std::string>();
  r.loweredName = j["entry"].get<std::string>();
  r.defLine = line_;
  r.ok = true;
  if (std::string bad = checkPtxParams(ptxEntryParams(r.cubin, r.loweredName), args); !bad.empty()) {
    r.cubin.clear();
    addError(r, file, line_,
             bad + " (the exercise's kernel: " + numbaDeclaration(ex, args, effectiveKernelName(k, ex)) + ")");
  }
  return {};
}

/// One file the helper compiles, and where its answer goes.
struct Pending {
  const NumbaJob* job;
  const std::vector<NumbaArg>* args;  ///< the kernel's arguments (numbaKernelArgs)
  NumbaCompileResult* result;
};

/// Runs the helper once on every pending file; fills each result (PTX, or one error, or unavailable).
void runHelper(const std::vector<Pending>& pending, const NumbaOptions& o, const std::string& python) {
  auto failAll = [&](const std::string& why) {
    for (const auto& p : pending) p.result->unavailable = why;
  };
  const TempFolder folder;
  std::vector<std::string> argv = {python, "-c", std::string(numbaHelperSource())};
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const NumbaJob& j = *pending[i].job;
    const std::string path = folder.write(i, j.kernel.source);
    if (path.empty()) return failAll("cannot write the kernel to a temporary folder for the Numba helper");
    argv.insert(argv.end(),
                {path, numbaSignature(*pending[i].args), ccOf(j.arch), displayName(j.kernel), j.kernel.kernelName});
  }
  const auto started = std::chrono::steady_clock::now();
  const Captured c = captureCommand(argv, o.timeLimitS, o.maxOutputBytes, o.cancel);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  const std::string who = "the Numba helper (" + python + ")";
  if (c.cancelled) return failAll("the Numba compile was cancelled");
  if (c.timedOut) return failAll(who + " did not finish within " + std::to_string(int(o.timeLimitS)) + " s: stopped");
  if (c.dropped > 0)
    return failAll(who + " printed more than " + std::to_string(o.maxOutputBytes >> 20) + " MiB: refused");
  const std::vector<std::string> lines = answerLines(c.output);
  if (lines.empty())
    return failAll(c.status == 127 && c.output.empty()
                       ? "no Python at '" + python + "'; " + numbaInstallHint()
                       : who + " gave no answer (it printed " + quoted(c.output) + "): refused");
  for (std::size_t i = 0; i < pending.size(); ++i) {
    NumbaCompileResult& r = *pending[i].result;
    r.compileMs = ms;
    // A helper without numba answers once for all; a helper that stopped early leaves the rest unanswered.
    const std::string& line = i < lines.size() ? lines[i] : lines.back();
    if (i >= lines.size() && line.find("\"unavailable\"") == std::string::npos) {
      r.unavailable = who + " stopped before answering for " + pending[i].job->kernel.fileName;
      continue;
    }
    const Pending& p = pending[i];
    if (std::string bad = takeAnswer(line, p.job->kernel, *p.job->exercise, *p.args, r); !bad.empty())
      r.unavailable = who + ": " + bad + ": refused";
  }
}

std::string readCapped(const std::string& path, std::size_t cap) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::string s(cap + 1, '\0');
  in.read(s.data(), std::streamsize(s.size()));
  s.resize(std::size_t(in.gcount()));
  return s.size() > cap ? std::string() : s;
}

bool loadFromDisk(const std::string& path, NumbaCompileResult& r) {
  const auto j = nlohmann::json::parse(readCapped(path, 16u << 20), nullptr, false);
  if (!j.is_object() || !j.contains("ptx") || !j["ptx"].is_string() || !j.contains("entry") ||
      !j["entry"].is_string() || !j.contains("line") || !j["line"].is_number_integer())
    return false;
  r.cubin = j["ptx"].get<std::string>();
  r.loweredName = j["entry"].get<std::string>();
  r.defLine = j["line"].get<int>();
  r.ok = true;
  r.cached = true;
  return true;
}

void saveToDisk(const std::string& path, const NumbaCompileResult& r) {
  try {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    files::writeAtomic(path, nlohmann::json{{"ptx", r.cubin}, {"entry", r.loweredName}, {"line", r.defLine}}.dump());
  } catch (const std::exception&) {
    // A cache that cannot be written costs the next run a compile, nothing more.
  }
}

}  // namespace

std::string_view numbaHelperSource() { return kernels::numbaHelperText(); }

std::string numbaInstallHint() {
  return "install numba-cuda with scripts/setup.sh (a .venv beside the sources) or 'python3 -m pip install "
         "numba-cuda==0.30.4 numba==0.68.1', or name a Python that has it with --python or LAUNCHLAB_PYTHON "
         "(kernels in .cu files need none)";
}

std::string findPython(const std::string& explicitPath) {
  if (!explicitPath.empty()) return explicitPath;
  if (std::string p = env("LAUNCHLAB_PYTHON"); !p.empty()) return p;
#ifdef LAUNCHLAB_PROJECT_VENV
  if (::access(LAUNCHLAB_PROJECT_VENV, X_OK) == 0) return LAUNCHLAB_PROJECT_VENV;
#endif
  return "python3";
}

std::string numbaCacheDir() {
  if (std::string d = env("LAUNCHLAB_CACHE_DIR"); !d.empty()) return d + "/numba";
  if (std::string d = env("XDG_CACHE_HOME"); !d.empty()) return d + "/launchlab/numba";
  if (std::string home = env("HOME"); !home.empty()) return home + "/.cache/launchlab/numba";
  return {};
}

namespace {

/// The cached compile of `key`, from the process's cache or the disk's; false when there is none.
bool cachedCompile(const std::string& key, const std::string& file, const std::vector<NumbaArg>& args,
                   NumbaCompileResult& r) {
  MemoryCache& mem = memoryCache();
  {
    std::lock_guard lock(mem.mutex);
    if (auto it = mem.entries.find(key); it != mem.entries.end()) {
      r = it->second;
      r.cached = true;
      return true;
    }
  }
  NumbaCompileResult disk;
  disk.arch = r.arch;
  disk.python = r.python;
  if (file.empty() || !loadFromDisk(file, disk) ||
      !checkPtxParams(ptxEntryParams(disk.cubin, disk.loweredName), args).empty())
    return false;
  r = disk;
  return true;
}

}  // namespace

std::vector<NumbaCompileResult> compileNumbaKernels(const std::vector<NumbaJob>& jobs, const NumbaOptions& o) {
  const std::string python = findPython(o.python);
  const std::string dir = o.cacheDir.empty() ? numbaCacheDir() : o.cacheDir == "-" ? std::string() : o.cacheDir;
  std::vector<NumbaCompileResult> results(jobs.size());
  std::vector<std::string> keys(jobs.size()), files(jobs.size());
  std::vector<NumbaKernelArgs> args(jobs.size());
  std::vector<Pending> pending;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const NumbaJob& j = jobs[i];
    NumbaCompileResult& r = results[i];
    const auto start = std::chrono::steady_clock::now();
    r.arch = j.arch;
    r.python = python;
    if (std::string bad = checkKernelSource(j.kernel.source); !bad.empty()) {
      r.unavailable = bad;
      continue;
    }
    args[i] = numbaKernelArgs(j.kernel.source, *j.exercise, j.dtype);
    if (!args[i].error.empty()) {
      addError(r, displayName(j.kernel), args[i].line, args[i].error);
      continue;
    }
    const std::string signature = numbaSignature(args[i].args);
    keys[i] =
        cacheKey({numbaHelperSource(), signature, j.arch, j.kernel.kernelName, j.kernel.fileName, j.kernel.source});
    files[i] = dir.empty() ? std::string() : dir + "/" + keys[i] + ".json";
    if (cachedCompile(keys[i], files[i], args[i].args, r))
      r.compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    else
      pending.push_back({&j, &args[i].args, &r});
  }
  if (!pending.empty()) runHelper(pending, o, python);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (!results[i].ok || results[i].cached) continue;
    if (!files[i].empty()) saveToDisk(files[i], results[i]);
    std::lock_guard lock(memoryCache().mutex);
    memoryCache().entries[keys[i]] = results[i];
  }
  return results;
}

NumbaCompileResult compileNumbaKernel(const UserKernel& k, const Exercise& ex, const std::string& arch,
                                      const NumbaOptions& o, std::optional<DType> dtype) {
  return compileNumbaKernels({{k, &ex, arch, dtype}}, o).front();
}

}  // namespace launchlab
