// The instrumenting pass (launchlab/ptx/ptx_instrument.h): one scan over the PTX, statement by statement, keeping
// every original line and inserting a probe before each access it can count.
#include "launchlab/ptx/ptx_instrument.h"

#include <algorithm>
#include <charconv>
#include <exception>
#include <map>

#include "probe_emit.h"
#include "ptx_parse.h"

namespace launchlab::ptx {

namespace {

struct Insertion {
  std::size_t line = 0;
  std::size_t offset = 0;
  std::string text;
};

/// A register prefix no identifier in the module starts with, so the probe's registers cannot be the kernel's.
std::string freshPrefix(std::string_view ptx) {
  std::string prefix = "%__llp";
  for (int i = 0; ptx.find(prefix) != std::string_view::npos; ++i) prefix = "%__llp" + std::to_string(i) + "_";
  return prefix;
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

/// A header of the CUDA toolkit (nvcc: .../cuda/.../include/x.hpp; NVRTC's built-in headers carry no folder).
bool isToolkitHeader(std::string_view path) {
  const bool header = path.ends_with(".h") || path.ends_with(".hpp");
  if (path.find('/') == std::string_view::npos) return path.ends_with(".hpp");
  return header && path.find("/include/") != std::string_view::npos && path.find("cuda") != std::string_view::npos;
}

struct Position {
  int file = 0;
  int line = 0;
};

int leadingInt(std::string_view s) {
  s = trim(s);
  int v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

/// "1 8 3" → file 1, line 8.
Position readPosition(std::string_view s) {
  s = trim(s);
  const auto sp = s.find_first_of(" \t");
  return {leadingInt(s), sp == std::string_view::npos ? 0 : leadingInt(s.substr(sp))};
}

class Pass {
 public:
  explicit Pass(std::string_view ptx) : m_lines(splitLines(ptx)), m_prefix(freshPrefix(ptx)) {}

  PtxInstrumentation run() {
    for (m_line = 0; m_line < m_lines.size() && m_out.error.empty(); ++m_line) scanLine(m_lines[m_line]);
    if (m_out.error.empty()) checkEnd();
    if (!m_out.error.empty()) return std::move(m_out);
    resolveFiles();
    if (m_out.records > 0) declareBuffer();
    m_out.ptx = assemble();
    return std::move(m_out);
  }

 private:
  void fail(std::size_t line, const std::string& what) {
    if (m_out.error.empty()) m_out.error = "line " + std::to_string(line + 1) + ": " + what;
  }

  /// The line with comments blanked out (same length, so offsets hold); block comments may span lines.
  std::string code(std::string_view line) {
    std::string c(line);
    bool inString = false;
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (m_inBlockComment) {
        if (c[i] == '*' && i + 1 < c.size() && c[i + 1] == '/') m_inBlockComment = false, c[i + 1] = ' ';
        c[i] = ' ';
      } else if (inString) {
        inString = c[i] != '"';
      } else if (c[i] == '"') {
        inString = true;
      } else if (c[i] == '/' && i + 1 < c.size() && c[i + 1] == '/') {
        std::fill(c.begin() + long(i), c.end(), ' ');
      } else if (c[i] == '/' && i + 1 < c.size() && c[i + 1] == '*') {
        m_inBlockComment = true;
        c[i] = ' ';
      }
    }
    return c;
  }

  void scanLine(std::string_view raw) {
    if (raw.find('\0') != std::string_view::npos) return fail(m_line, "not text (a NUL byte)");
    const auto c = code(raw);
    const auto t = trim(c);
    if (m_pending.empty() && lineDirective(t)) return;
    bool inString = false;
    for (std::size_t i = 0; i < c.size() && m_out.error.empty(); ++i) {
      const char ch = c[i];
      if (inString || ch == '"') {
        inString = ch == '"' ? !inString : inString;
        append(ch, i);
      } else if (ch == '{') {
        openBrace(i);
      } else if (ch == '}') {
        closeBrace();
      } else if (ch == ';') {
        endStatement();
      } else if (ch == ':' && isLabelEnd(c, i)) {
        m_pending.clear();
      } else {
        append(ch, i);
      }
    }
    if (!m_pending.empty()) m_pending += '\n';
  }

  bool isLabelEnd(const std::string& c, std::size_t i) const {
    if ((i + 1 < c.size() && c[i + 1] == ':') || (i > 0 && c[i - 1] == ':')) return false;
    const auto p = trim(m_pending);
    return !p.empty() && std::all_of(p.begin(), p.end(), [](char x) {
      return std::isalnum(static_cast<unsigned char>(x)) || x == '_' || x == '$' || x == '%';
    });
  }

  void append(char ch, std::size_t offset) {
    if (m_pending.empty() && std::isspace(static_cast<unsigned char>(ch))) return;
    if (m_pending.empty()) m_startLine = m_line, m_startOffset = offset;
    m_pending += ch;
  }

  /// .version, .target, .address_size, .loc and .file: directives without ';', one per line.
  bool lineDirective(std::string_view t) {
    const auto word = t.substr(0, t.find_first_of(" \t"));
    const auto rest = trim(t.substr(word.size()));
    if (word == ".version") {
      m_version = leadingInt(rest) * 10 + leadingInt(rest.substr(std::min(rest.size(), rest.find('.') + 1)));
    } else if (word == ".target") {
      const auto sm = rest.find("sm_");
      m_out.target = std::string(rest.substr(0, rest.find_first_of(", \t")));
      m_sm = sm == std::string_view::npos ? 0 : leadingInt(rest.substr(sm + 3));
    } else if (word == ".address_size") {
      m_addressSize = leadingInt(rest);
      m_addressSizeLine = m_line;
    } else if (word == ".loc") {
      m_loc = readPosition(rest);
      const auto at = rest.find("inlined_at");
      m_inlinedAt = at == std::string_view::npos ? Position{} : readPosition(rest.substr(at + 10));
    } else if (word == ".file") {
      const auto q1 = rest.find('"'), q2 = rest.find('"', q1 + 1);
      if (q1 != std::string_view::npos && q2 != std::string_view::npos)
        m_files[leadingInt(rest)] = std::string(rest.substr(q1 + 1, q2 - q1 - 1));
    } else {
      return false;
    }
    return true;
  }

  void openBrace(std::size_t offset) {
    const auto p = trim(m_pending);
    if (m_function.empty() && m_braceInStatement == 0 &&
        (p.find(".entry") != std::string_view::npos || p.find(".func") != std::string_view::npos)) {
      enterFunction(p);
    } else if (p.empty() || p.rfind(".section", 0) == 0) {
      m_pending.clear();
      ++m_depth;
    } else {
      ++m_braceInStatement;
      append('{', offset);
    }
  }

  void enterFunction(std::string_view header) {
    m_function = functionName(header);
    if (header.find(".entry") != std::string_view::npos) m_out.kernels.push_back(m_function);
    if (m_version == 0) return fail(m_line, "not PTX: no .version directive before the first function");
    m_functionDepth = ++m_depth;
    m_regs.clear();
    m_pending.clear();
  }

  void closeBrace() {
    if (m_braceInStatement > 0) {
      --m_braceInStatement;
      m_pending += '}';
      return;
    }
    if (m_depth == 0) return fail(m_line, "a '}' closes nothing");
    if (m_depth == m_functionDepth && !m_function.empty()) m_function.clear();
    --m_depth;
    m_pending.clear();
  }

  void endStatement() {
    const std::string text = std::move(m_pending);
    m_pending.clear();
    m_braceInStatement = 0;
    if (m_function.empty()) return;
    const auto t = trim(text);
    if (t.rfind(".reg", 0) == 0) return m_regs.declare(t.substr(4));
    if (t.empty() || t.front() == '.') return;
    const auto st = parseStatement(t);
    const auto op = classifyOpcode(st.opcode);
    if (op.listed) addAccess(st, op);
  }

  void addAccess(const Statement& st, const MemOp& op) {
    PtxAccess a;
    a.function = m_function;
    a.line = m_loc.line;  // the file's name is known at the end (.file may follow the functions)
    m_positions.push_back({m_loc, m_inlinedAt});
    a.ptxLine = int(m_startLine) + 1;
    a.space = op.space;
    a.kind = op.kind;
    a.widthBytes = op.widthBytes;
    a.instruction = st.opcode;
    a.reason = op.reason.empty() ? moduleProblem() : op.reason;
    ProbeSite site;
    if (a.reason.empty()) a.reason = siteFor(st, op, site);
    if (a.reason.empty()) {
      a.counter = site.record = m_out.records++;
      insertProbe(emitProbe(site, m_prefix));
    }
    m_out.accesses.push_back(std::move(a));
  }

  std::string moduleProblem() const {
    if (m_version < 62) return "the PTX's ISA version is older than 6.2, which the probes need";
    if (m_sm < 70) return "the PTX targets " + m_out.target + " and the probes need sm_70 or newer";
    if (m_addressSize != 64) return "the PTX uses 32-bit addresses";
    return {};
  }

  std::string siteFor(const Statement& st, const MemOp& op, ProbeSite& site) const {
    std::string why;
    const auto addr = parseAddress(st.operands, why);
    if (!addr) return why;
    site.address = *addr;
    site.space = op.space;
    site.widthBytes = op.widthBytes;
    site.guard = st.guard;
    site.guardNegated = st.guardNegated;
    if (!st.guard.empty() && m_regs.bits(st.guard) != 1)
      return "its predicate " + st.guard + " is not a declared predicate";
    if (addr->base == Address::Base::Register) {
      site.baseBits = m_regs.bits(addr->name);
      if (site.baseBits != 32 && site.baseBits != 64)
        return "its address register " + addr->name + " is not a declared 32- or 64-bit register";
    }
    return {};
  }

  void insertProbe(std::string probe) {
    const auto line = m_lines[m_startLine];
    const bool atLineStart = trim(line.substr(0, m_startOffset)).empty();
    if (atLineStart)
      m_insertions.push_back({m_startLine, 0, std::move(probe)});
    else
      m_insertions.push_back({m_startLine, m_startOffset, "\n" + probe});
  }

  void checkEnd() {
    if (m_inBlockComment) return fail(m_lines.size() - 1, "the PTX ends inside a /* comment */ (truncated?)");
    if (!m_function.empty())
      return fail(m_lines.size() - 1, "the PTX ends inside function " + m_function + " (truncated?)");
    if (m_depth != 0) return fail(m_lines.size() - 1, "the PTX ends inside a { } block (truncated?)");
    if (m_version == 0) return fail(0, "not PTX: no .version directive");
  }

  /// Each access's file; an access inside a CUDA header's inline function (atomicAdd, __ldg) is placed where that
  /// function was called, the line a student wrote.
  void resolveFiles() {
    const auto name = [&](int index) {
      const auto it = m_files.find(index);
      return it == m_files.end() ? std::string() : it->second;
    };
    for (std::size_t i = 0; i < m_out.accesses.size(); ++i) {
      auto& a = m_out.accesses[i];
      const auto& [loc, inlinedAt] = m_positions[i];
      a.file = name(loc.file);
      if (inlinedAt.line > 0 && isToolkitHeader(a.file)) a.file = name(inlinedAt.file), a.line = inlinedAt.line;
    }
  }

  void declareBuffer() {
    const std::string decl = "\n// the counter buffer of launchlab's access probes\n.visible .global .align 8 .u64 " +
                             std::string(kCountersSymbol) + ";";
    m_insertions.push_back({m_addressSizeLine, m_lines[m_addressSizeLine].size(), decl});
  }

  std::string assemble() {
    std::stable_sort(m_insertions.begin(), m_insertions.end(), [](const Insertion& a, const Insertion& b) {
      return std::tie(a.line, a.offset) < std::tie(b.line, b.offset);
    });
    std::string out;
    auto ins = m_insertions.begin();
    for (std::size_t l = 0; l < m_lines.size(); ++l) {
      std::size_t done = 0;
      for (; ins != m_insertions.end() && ins->line == l; ++ins) {
        out.append(m_lines[l].substr(done, ins->offset - done));
        out += ins->text;
        done = ins->offset;
      }
      out.append(m_lines[l].substr(done));
      out += '\n';
    }
    return out;
  }

  std::vector<std::string_view> m_lines;
  std::string m_prefix;
  PtxInstrumentation m_out;
  std::vector<Insertion> m_insertions;
  std::size_t m_line = 0;
  bool m_inBlockComment = false;
  std::string m_pending;
  std::size_t m_startLine = 0, m_startOffset = 0;
  int m_braceInStatement = 0;
  int m_depth = 0, m_functionDepth = 0;
  std::string m_function;
  RegisterTable m_regs;
  int m_version = 0, m_sm = 0, m_addressSize = 32;
  std::size_t m_addressSizeLine = 0;
  Position m_loc, m_inlinedAt;
  std::vector<std::pair<Position, Position>> m_positions;  ///< per access: its .loc and where that was inlined
  std::map<int, std::string> m_files;
};

}  // namespace

PtxInstrumentation instrumentPtx(std::string_view ptx) {
  if (ptx.size() > kMaxPtxBytes) {
    PtxInstrumentation r;
    r.error = "the PTX is " + std::to_string(ptx.size() >> 20) + " MiB, more than the " +
              std::to_string(kMaxPtxBytes >> 20) + " MiB the pass reads";
    return r;
  }
  try {
    return Pass(ptx).run();
  } catch (const std::exception& e) {  // out of memory: one line, never a crash
    PtxInstrumentation r;
    r.error = std::string("the PTX could not be instrumented: ") + e.what();
    return r;
  }
}

std::string_view spaceName(PtxSpace s) {
  switch (s) {
    case PtxSpace::Global:
      return "global";
    case PtxSpace::Shared:
      return "shared";
    case PtxSpace::Generic:
      return "generic";
    case PtxSpace::Local:
      return "local";
    case PtxSpace::Const:
      return "const";
    case PtxSpace::Other:
      return "other";
  }
  return "other";
}

std::string_view kindName(PtxAccessKind k) {
  switch (k) {
    case PtxAccessKind::Load:
      return "load";
    case PtxAccessKind::Store:
      return "store";
    case PtxAccessKind::Atomic:
      return "atomic";
    case PtxAccessKind::Reduction:
      return "reduction";
  }
  return "load";
}

std::string describeAccess(const PtxAccess& a) {
  std::string s = a.line > 0 ? "line " + std::to_string(a.line) : "PTX line " + std::to_string(a.ptxLine);
  s += ": " + a.instruction;
  if (a.widthBytes > 0) s += " (" + std::to_string(a.widthBytes) + " B " + std::string(kindName(a.kind)) + ")";
  if (a.instrumented()) return s + " is counted";
  return s + " is not counted: " + a.reason;
}

}  // namespace launchlab::ptx
