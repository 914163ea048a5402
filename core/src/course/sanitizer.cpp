// compute-sanitizer's text report as findings at source lines (launchlab/course/sanitizer.h).
#include "launchlab/course/sanitizer.h"

#include <unistd.h>

#include <algorithm>
#include <regex>

namespace launchlab {

namespace {

/// The line without its "========= " prefix; nothing when it has none (the application's own output).
std::optional<std::string_view> reportBody(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == '=') ++i;
  if (i < 3) return std::nullopt;
  if (i < line.size() && line[i] == ' ') ++i;
  return line.substr(i);
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// "... in FILE:LINE", "... in FILE:LINE:KERNEL(void)", "... in FILE:LINE [4 hazards]": FILE and LINE.
bool locationOf(std::string_view text, std::string& file, int& line) {
  const auto in = text.rfind(" in ");
  if (in == std::string_view::npos) return false;
  static const std::regex loc(R"(^([^\s:]+):(\d+)(?::|\s|$))");
  std::match_results<std::string_view::const_iterator> m;
  const std::string_view rest = text.substr(in + 4);
  if (!std::regex_search(rest.begin(), rest.end(), m, loc)) return false;
  file = m[1].str();
  line = std::stoi(m[2].str());
  return true;
}

/// Report lines that are no finding of their own.
bool isChatter(std::string_view body) {
  for (std::string_view p :
       {"COMPUTE-SANITIZER", "ERROR SUMMARY", "LEAK SUMMARY", "RACECHECK SUMMARY", "Target application returned",
        "Saved host backtrace", "Host Frame", "Device Frame", "Internal Sanitizer", "Error: process didn't terminate"})
    if (startsWith(body, p)) return true;
  return false;
}

/// Racecheck's "Error: Race reported between Write access at X in F:13" (and its "Warning:" / older "WARN:" forms).
bool isRaceHeadline(std::string_view body) { return body.find("Race reported between") != std::string_view::npos; }

/// Builds findings from a headline and the indented lines under it.
class ReportReader {
 public:
  explicit ReportReader(std::string_view tool) : m_tool(tool) {}

  void headline(std::string_view body) {
    flush();
    if (startsWith(body, "Program hit ")) {
      m_out.push_back({m_tool, "", 0, std::string(body)});
      return;
    }
    m_open = true;
    m_cur = {m_tool, "", 0, ""};
    if (isRaceHeadline(body)) {
      m_race = true;
      const auto between = body.find("Race reported between");
      std::string_view what = body.substr(between + 22);  // "Write access at ... in F:13"
      locationOf(what, m_cur.file, m_cur.line);
      m_cur.text = "race: " + accessName(what) + lineSuffix(m_cur.line);
    } else {
      m_race = false;
      std::string_view text = body;
      if (startsWith(text, "ERROR: ")) text.remove_prefix(7);
      if (text.size() > 2 && text.substr(text.size() - 2) == " :") text.remove_suffix(2);
      m_cur.text = std::string(text);
      locationOf(body, m_cur.file, m_cur.line);
    }
  }

  void detail(std::string_view body) {
    if (!m_open) return;
    body = trimmed(body);
    std::string file;
    int line = 0;
    const bool located = locationOf(body, file, line);
    if (m_race && startsWith(body, "and ")) {
      m_cur.text += " and " + accessName(body.substr(4)) + lineSuffix(line);
      if (const auto h = body.rfind('['); h != std::string_view::npos) m_cur.text += " " + std::string(body.substr(h));
    } else if (located && m_cur.line == 0) {
      m_cur.file = file;
      m_cur.line = line;
      if (m_race) m_cur.text += lineSuffix(line);
    } else if (startsWith(body, "by thread") || startsWith(body, "Address ")) {
      m_cur.text += (startsWith(body, "by") ? " " : "; ") + std::string(body);
    }
  }

  std::vector<SanitizerFinding> finish() {
    flush();
    return std::move(m_out);
  }

 private:
  /// "Write access at KERNEL+0x350 in F:13" -> "Write access" (also when the location is on the next line).
  static std::string accessName(std::string_view what) {
    what = trimmed(what.substr(0, what.find(" at ")));
    if (what.size() > 3 && what.substr(what.size() - 3) == " at") what.remove_suffix(3);
    return std::string(what);
  }
  static std::string lineSuffix(int line) { return line > 0 ? " (line " + std::to_string(line) + ")" : ""; }

  void flush() {
    if (m_open && !m_cur.text.empty()) m_out.push_back(m_cur);
    m_open = false;
  }

  std::string m_tool;
  std::vector<SanitizerFinding> m_out;
  SanitizerFinding m_cur;
  bool m_open = false;
  bool m_race = false;
};

/// Memcheck names the thread of each finding ("… by thread (t) in block (b); Address …"), so one bad line read by
/// every thread of a launch is one finding per thread. Those that differ only from " by thread" on (same tool, file,
/// line and access) become one: the first thread's text with " and N more threads" after its thread.
std::vector<SanitizerFinding> foldThreads(std::vector<SanitizerFinding> in) {
  constexpr std::string_view kBy = " by thread ";
  struct Group {
    SanitizerFinding first;
    std::string access;  ///< the text before " by thread "
    std::size_t more = 0;
  };
  std::vector<Group> groups;
  for (auto& f : in) {
    const auto by = f.text.find(kBy);
    if (by != std::string::npos) {
      const std::string access = f.text.substr(0, by);
      auto same = [&](const Group& g) {
        return g.first.tool == f.tool && g.first.file == f.file && g.first.line == f.line && g.access == access;
      };
      if (auto it = std::find_if(groups.begin(), groups.end(), same); it != groups.end()) {
        ++it->more;
        continue;
      }
      groups.push_back({std::move(f), access, 0});
    } else {
      groups.push_back({std::move(f), {}, 0});  // no thread named: its own finding
    }
  }
  std::vector<SanitizerFinding> out;
  out.reserve(groups.size());
  for (auto& g : groups) {
    if (g.more > 0) {
      const auto by = g.first.text.find(kBy);
      auto end = g.first.text.find("; ", by);
      if (end == std::string::npos) end = g.first.text.size();
      g.first.text.insert(end, " and " + std::to_string(g.more) + (g.more == 1 ? " more thread" : " more threads"));
    }
    out.push_back(std::move(g.first));
  }
  return out;
}

/// After a kernel faults, every later CUDA call reports the same error ("Program hit cudaErrorLaunchFailure (error
/// 719) due to … on CUDA API call to cudaFree."): one finding naming the calls in order ("… on CUDA API calls to
/// cudaMemcpyAsync, cudaFree").
std::vector<SanitizerFinding> foldApiErrors(std::vector<SanitizerFinding> in) {
  constexpr std::string_view kCall = " on CUDA API call to ";
  struct Group {
    SanitizerFinding first;
    std::string error;               ///< the text before kCall ("" when it has none)
    std::vector<std::string> calls;  ///< the calls after kCall, without the final '.'
  };
  std::vector<Group> groups;
  for (auto& f : in) {
    const auto at = f.line == 0 ? f.text.find(kCall) : std::string::npos;
    if (at == std::string::npos) {
      groups.push_back({std::move(f), {}, {}});
      continue;
    }
    std::string error = f.text.substr(0, at);
    std::string call = f.text.substr(at + kCall.size());
    if (!call.empty() && call.back() == '.') call.pop_back();
    auto same = [&](const Group& g) { return !g.error.empty() && g.first.tool == f.tool && g.error == error; };
    if (auto it = std::find_if(groups.begin(), groups.end(), same); it != groups.end()) {
      it->calls.push_back(std::move(call));
      continue;
    }
    groups.push_back({std::move(f), std::move(error), {std::move(call)}});
  }
  std::vector<SanitizerFinding> out;
  out.reserve(groups.size());
  for (auto& g : groups) {
    if (g.calls.size() > 1) {
      std::string calls;
      for (const auto& c : g.calls) calls += (calls.empty() ? "" : ", ") + c;
      g.first.text = g.error + " on CUDA API calls to " + calls;
    }
    out.push_back(std::move(g.first));
  }
  return out;
}

}  // namespace

std::vector<SanitizerFinding> parseSanitizerReport(std::string_view report, std::string_view tool) {
  ReportReader reader(tool);
  std::size_t pos = 0;
  while (pos < report.size()) {
    auto end = report.find('\n', pos);
    if (end == std::string_view::npos) end = report.size();
    const std::string_view line = report.substr(pos, end - pos);
    pos = end + 1;
    const auto body = reportBody(line);
    if (!body || trimmed(*body).empty() || isChatter(trimmed(*body))) continue;
    if ((*body)[0] == ' ' || (*body)[0] == '\t')
      reader.detail(*body);
    else
      reader.headline(trimmed(*body));
  }
  std::vector<SanitizerFinding> out;
  for (auto& f : reader.finish())  // the same finding from many threads is one line
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(std::move(f));
  return foldApiErrors(foldThreads(std::move(out)));
}

std::string formatFinding(const SanitizerFinding& f) {
  std::string where = f.file.empty() ? std::string("(no source line)") : f.file;
  if (f.line > 0) where += ":" + std::to_string(f.line);
  return where + ": " + f.tool + ": " + f.text;
}

std::optional<SanitizerFinding> parseFindingLine(std::string_view line) {
  static const std::regex form(R"(^(.+?)(?::(\d+))?: (memcheck|racecheck|initcheck|synccheck): (.+)$)");
  std::match_results<std::string_view::const_iterator> m;
  line = trimmed(line);
  if (!std::regex_match(line.begin(), line.end(), m, form)) return std::nullopt;
  SanitizerFinding f{m[3].str(), m[1].str(), m[2].matched ? std::stoi(m[2].str()) : 0, m[4].str()};
  if (f.file == "(no source line)") f.file.clear();
  return f;
}

bool usesSharedMemory(std::string_view source) {
  std::string code;  // the source with comments and string literals as spaces
  code.reserve(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source.substr(i, 2) == "//") {
      i = std::min(source.find('\n', i), source.size());
      code += ' ';
    } else if (source.substr(i, 2) == "/*") {
      i = std::min(source.find("*/", i + 2), source.size()) + 1;
      code += ' ';
    } else if (source[i] == '"') {
      while (++i < source.size() && source[i] != '"' && source[i] != '\n') i += source[i] == '\\' ? 1 : 0;
      code += ' ';
    } else {
      code += source[i];
    }
  }
  return code.find("__shared__") != std::string::npos;
}

std::string findComputeSanitizer(std::string_view pathVar, std::string_view cudaHome) {
  std::vector<std::string> dirs;
  for (std::size_t pos = 0; pos <= pathVar.size();) {
    auto end = pathVar.find(':', pos);
    if (end == std::string_view::npos) end = pathVar.size();
    if (end > pos) dirs.emplace_back(pathVar.substr(pos, end - pos));
    pos = end + 1;
  }
  if (!cudaHome.empty()) dirs.push_back(std::string(cudaHome) + "/bin");
  dirs.emplace_back("/usr/local/cuda/bin");
  for (const auto& d : dirs) {
    const std::string exe = d + "/compute-sanitizer";
    if (::access(exe.c_str(), X_OK) == 0) return exe;
  }
  return {};
}

}  // namespace launchlab
