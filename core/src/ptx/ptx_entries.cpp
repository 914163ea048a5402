// A module's kernels by name, and one kernel cut out of a module (launchlab/ptx/ptx_instrument.h): how a built-in
// kernel, launched through its host stub, finds its instrumented twin in the workload's PTX, and why only that
// kernel is handed to the JIT (a lesson's module holds every template instantiation of every variant).
#include <algorithm>
#include <cctype>
#include <functional>

#include "launchlab/ptx/ptx_instrument.h"
#include "ptx_parse.h"

namespace launchlab::ptx {

namespace {

/// One item at module scope: a directive ending in ';' (.global, .extern .func) or a function with its body, with
/// the lines before it that belong to it (comments such as "// .globl k").
struct TopLevelItem {
  std::string text;  ///< as written, whole lines
  bool entry = false;
  std::string name;  ///< the entry's name
};

/// Lines that are directives of their own (no ';'): kept apart from the items.
bool isLineDirective(std::string_view t) {
  for (std::string_view d : {".version", ".target", ".address_size", ".file"})
    if (t.rfind(d, 0) == 0) return true;
  return false;
}

/// Calls `line(text)` for the module's line directives and blank or comment-only lines between items, and
/// `item(it)` for each item, in order. Braces and ';' inside comments do not count.
void forEachTopLevel(std::string_view ptx, const std::function<void(std::string_view)>& line,
                     const std::function<void(const TopLevelItem&)>& item) {
  TopLevelItem current;
  std::string header;  // the item's code before its first '{' (comments blanked)
  bool inBlockComment = false, bodyOpened = false;
  int depth = 0;
  std::size_t start = 0;
  while (start < ptx.size()) {
    const auto nl = ptx.find('\n', start);
    const auto raw = ptx.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start + 1);
    start = nl == std::string_view::npos ? ptx.size() : nl + 1;
    std::string code;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      const bool opens = raw[i] == '/' && i + 1 < raw.size();
      if (inBlockComment) {
        if (raw[i] == '*' && i + 1 < raw.size() && raw[i + 1] == '/') inBlockComment = false, ++i;
      } else if (opens && raw[i + 1] == '/') {
        break;
      } else if (opens && raw[i + 1] == '*') {
        inBlockComment = true, ++i;
      } else {
        code += raw[i];
      }
    }
    const auto t = trim(code);
    if (depth == 0 && current.text.empty() && (t.empty() || isLineDirective(t))) {
      line(raw);
      continue;
    }
    current.text += raw;
    bool ended = false;
    for (const char ch : code) {
      if (ch == '{') {
        bodyOpened = bodyOpened || depth == 0;
        ++depth;
      } else if (ch == '}') {
        depth = std::max(0, depth - 1);
        ended = ended || depth == 0;
      } else if (ch == ';' && depth == 0) {
        ended = true;
      }
      if (!bodyOpened && depth == 0) header += ch;
    }
    if (!ended || depth != 0) continue;
    current.entry = header.find(".entry") != std::string::npos;
    if (current.entry) current.name = functionName(header);
    item(current);
    current = {};
    header.clear();
    bodyOpened = false;
  }
  if (!current.text.empty()) item(current);  // unterminated: kept as it is
}

/// `mangled` with each anonymous namespace's name ("46_GLOBAL__N__27c3f3f1_13_coalescing_cu_9e0bd23a", whose hash
/// depends on how the file was compiled) replaced by "_GLOBAL__N_".
std::string withoutAnonymousNamespaceIds(std::string_view mangled) {
  static constexpr std::string_view kAnon = "_GLOBAL__N_";
  std::string out;
  std::size_t from = 0;
  for (auto at = mangled.find(kAnon); at != std::string_view::npos; at = mangled.find(kAnon, from)) {
    std::size_t digits = at;
    while (digits > from && std::isdigit(static_cast<unsigned char>(mangled[digits - 1]))) --digits;
    std::size_t length = 0;
    for (std::size_t i = digits; i < at; ++i) length = length * 10 + std::size_t(mangled[i] - '0');
    if (digits == at || at + length > mangled.size()) length = kAnon.size();  // not a length-prefixed name
    out.append(mangled.substr(from, digits - from));
    out += kAnon;
    from = at + length;
  }
  out.append(mangled.substr(from));
  return out;
}

}  // namespace

std::vector<std::string> ptxEntryNames(std::string_view ptx) {
  std::vector<std::string> names;
  forEachTopLevel(
      ptx, [](std::string_view) {},
      [&](const TopLevelItem& it) {
        if (it.entry) names.push_back(it.name);
      });
  return names;
}

std::optional<std::string> matchingEntry(const std::vector<std::string>& entries, std::string_view mangled) {
  if (std::find(entries.begin(), entries.end(), mangled) != entries.end()) return std::string(mangled);
  const std::string key = withoutAnonymousNamespaceIds(mangled);
  std::optional<std::string> found;
  for (const auto& e : entries) {
    if (withoutAnonymousNamespaceIds(e) != key) continue;
    if (found) return std::nullopt;  // two files' anonymous namespaces: ambiguous
    found = e;
  }
  return found;
}

std::string ptxWithOnlyEntry(std::string_view ptx, std::string_view entry, std::string* error) {
  std::string out;
  bool found = false;
  forEachTopLevel(
      ptx, [&](std::string_view line) { out.append(line); },
      [&](const TopLevelItem& it) {
        if (it.entry && it.name != entry) return;
        found = found || it.entry;
        out += it.text;
      });
  if (found) return out;
  if (error) *error = "the PTX has no kernel " + std::string(entry);
  return {};
}

}  // namespace launchlab::ptx
