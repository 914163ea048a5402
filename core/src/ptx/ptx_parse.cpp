// Reading the parts of PTX statements the instrumenting pass needs (ptx_parse.h).
#include "ptx_parse.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <vector>

namespace launchlab::ptx {

namespace {

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }

std::vector<std::string_view> splitDots(std::string_view opcode) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= opcode.size()) {
    const auto dot = opcode.find('.', start);
    const auto end = dot == std::string_view::npos ? opcode.size() : dot;
    parts.push_back(opcode.substr(start, end - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

// Qualifiers that do not change which bytes an access touches: caching, ordering, scope, the operation of an
// atomic, rounding. Anything else that is not a space, vector or type is refused with its name.
bool harmlessQualifier(std::string_view q) {
  static constexpr std::array<std::string_view, 37> known = {
      "ca",      "cg",      "cs",      "lu",   "cv",      "wb",    "wt",  "nc",      "volatile", "relaxed",
      "acquire", "release", "acq_rel", "weak", "mmio",    "sc",    "cta", "cluster", "gpu",      "sys",
      "add",     "inc",     "dec",     "min",  "max",     "and",   "or",  "xor",     "exch",     "cas",
      "ftz",     "noftz",   "rn",      "sat",  "unified", "level", "nan"};
  for (auto k : known)
    if (q == k) return true;
  return q.find("::") != std::string_view::npos && q.rfind("shared", 0) != 0;  // L1::, L2::, level::
}

std::string_view notCountedInstruction(std::string_view head) {
  if (head == "tex" || head == "tld4" || head == "txq") return "it reads through the texture path";
  if (head == "suld" || head == "sust" || head == "sured") return "it is a surface access";
  if (head == "ldmatrix" || head == "stmatrix") return "it is a warp-wide matrix load or store";
  if (head == "wmma") return "it is a warp-wide matrix load or store (wmma)";
  if (head == "cp") return "it is an asynchronous copy";
  if (head == "multimem") return "it is a multimem access";
  return {};
}

struct Qualifiers {
  PtxSpace space = PtxSpace::Generic;
  int vector = 1;
  int typeBits = 0;
  std::string reason;
};

void readQualifier(std::string_view q, Qualifiers& out) {
  if (q == "global") {
    out.space = PtxSpace::Global;
  } else if (q == "shared" || q == "shared::cta") {
    out.space = PtxSpace::Shared;
  } else if (q == "local") {
    out.space = PtxSpace::Local;
  } else if (q == "const") {
    out.space = PtxSpace::Const;
  } else if (q.rfind("param", 0) == 0) {
    out.space = PtxSpace::Other;
  } else if (q == "shared::cluster") {
    out.reason = "it reaches another block's shared memory (shared::cluster)";
  } else if (q == "v2" || q == "v4" || q == "v8") {
    out.vector = q[1] - '0';
  } else if (q == "async") {
    out.reason = "it is an asynchronous store or reduction";
  } else if (typeBits(q) > 1) {
    out.typeBits = typeBits(q);
  } else if (!harmlessQualifier(q) && out.reason.empty()) {
    out.reason = "its qualifier ." + std::string(q) + " is not understood";
  }
}

}  // namespace

int typeBits(std::string_view t) {
  if (t == "pred") return 1;
  if (t == "b8" || t == "u8" || t == "s8") return 8;
  if (t == "b16" || t == "u16" || t == "s16" || t == "f16" || t == "bf16") return 16;
  if (t == "b32" || t == "u32" || t == "s32" || t == "f32" || t == "f16x2" || t == "bf16x2" || t == "tf32") return 32;
  if (t == "b64" || t == "u64" || t == "s64" || t == "f64") return 64;
  if (t == "b128") return 128;
  return 0;
}

Statement parseStatement(std::string_view text) {
  Statement st;
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  // A label ends with ':' before any space ("$L__BB0_2: ld.global..."); "::" belongs to qualifiers.
  std::size_t j = i;
  while (j < text.size() && isIdentChar(text[j])) ++j;
  if (j > i && j < text.size() && text[j] == ':' && (j + 1 >= text.size() || text[j + 1] != ':')) {
    i = j + 1;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  }
  st.bodyOffset = i;
  if (i < text.size() && text[i] == '@') {
    ++i;
    if (i < text.size() && text[i] == '!') st.guardNegated = true, ++i;
    const auto start = i;
    while (i < text.size() && isIdentChar(text[i])) ++i;
    st.guard = std::string(text.substr(start, i - start));
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  }
  const auto start = i;
  while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  st.opcode = std::string(text.substr(start, i - start));
  st.operands = std::string(trim(text.substr(i)));
  return st;
}

MemOp classifyOpcode(std::string_view opcode) {
  MemOp op;
  const auto parts = splitDots(opcode);
  const auto head = parts.front();
  if (const auto why = notCountedInstruction(head); !why.empty()) {
    op.listed = true;
    op.reason = why;
    op.space = PtxSpace::Other;
    return op;
  }
  if (head == "ld" || head == "ldu") {
    op.kind = PtxAccessKind::Load;
  } else if (head == "st") {
    op.kind = PtxAccessKind::Store;
  } else if (head == "atom") {
    op.kind = PtxAccessKind::Atomic;
  } else if (head == "red") {
    op.kind = PtxAccessKind::Reduction;
  } else {
    return op;
  }
  Qualifiers q;
  for (std::size_t i = 1; i < parts.size(); ++i) readQualifier(parts[i], q);
  op.space = q.space;
  op.listed = q.space != PtxSpace::Other;
  op.widthBytes = q.vector * q.typeBits / 8;
  op.reason = q.reason;
  if (!op.reason.empty()) return op;
  if (q.space == PtxSpace::Local)
    op.reason = "local memory (a thread's own arrays, spilled registers) is private to each thread";
  else if (q.space == PtxSpace::Const)
    op.reason = "constant memory is read through the constant cache";
  else if (q.typeBits == 0)
    op.reason = "its width is not understood";
  else if (op.widthBytes > 16)
    op.reason = "it moves more than 16 bytes per thread";
  return op;
}

std::optional<Address> parseAddress(std::string_view operands, std::string& why) {
  const auto open = operands.find('[');
  const auto close = operands.find(']', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) {
    why = "its address operand is missing";
    return std::nullopt;
  }
  auto inner = trim(operands.substr(open + 1, close - open - 1));
  Address a;
  std::size_t i = 0;
  while (i < inner.size() && (isIdentChar(inner[i]) || inner[i] == '.')) ++i;
  const auto base = inner.substr(0, i);
  auto rest = trim(inner.substr(i));
  if (!base.empty() && std::isdigit(static_cast<unsigned char>(base.front()))) {
    rest = inner;  // a plain address: [1024]
  } else if (!base.empty()) {
    a.name = std::string(base);
    a.base = base.front() == '%' ? Address::Base::Register : Address::Base::Symbol;
    if (!rest.empty() && rest.front() == '+') rest = trim(rest.substr(1));
  }
  if (!rest.empty()) {
    bool negative = false;
    if (rest.front() == '-') negative = true, rest = trim(rest.substr(1));
    int base10 = 10;
    if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X')) rest.remove_prefix(2), base10 = 16;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v, base10);
    if (ec != std::errc{} || end != rest.data() + rest.size() || v > (std::uint64_t(1) << 62)) {
      why = "its address [" + std::string(inner) + "] is not understood";
      return std::nullopt;
    }
    a.offset = negative ? -std::int64_t(v) : std::int64_t(v);
  }
  return a;
}

void RegisterTable::declare(std::string_view decl) {
  // ".v4 .b32 %a, %b<8>" (the leading ".reg" removed)
  decl = trim(decl);
  int bits = 0, vector = 1;
  while (!decl.empty() && decl.front() == '.') {
    std::size_t e = 1;
    while (e < decl.size() && !std::isspace(static_cast<unsigned char>(decl[e]))) ++e;
    const auto q = decl.substr(1, e - 1);
    if (q == "v2" || q == "v4")
      vector = q[1] - '0';
    else if (typeBits(q) > 0)
      bits = typeBits(q);
    decl = trim(decl.substr(e));
  }
  if (bits == 0) return;
  std::size_t start = 0;
  while (start < decl.size()) {
    auto comma = decl.find(',', start);
    if (comma == std::string_view::npos) comma = decl.size();
    const auto name = trim(decl.substr(start, comma - start));
    const auto lt = name.find('<');
    if (lt != std::string_view::npos) {
      long count = 0;
      const auto num = name.substr(lt + 1, name.size() - lt - 2);
      std::from_chars(num.data(), num.data() + num.size(), count);
      m_ranges[std::string(name.substr(0, lt))] = {vector == 1 ? bits : 0, count};
    } else if (!name.empty()) {
      m_names[std::string(name)] = vector == 1 ? bits : 0;
    }
    start = comma + 1;
  }
}

int RegisterTable::bits(std::string_view name) const {
  if (const auto it = m_names.find(std::string(name)); it != m_names.end()) return it->second;
  auto digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  if (digits == name.size() || digits == 0) return 0;
  const auto it = m_ranges.find(std::string(name.substr(0, digits)));
  if (it == m_ranges.end()) return 0;
  long index = 0;
  std::from_chars(name.data() + digits, name.data() + name.size(), index);
  return index < it->second.second ? it->second.first : 0;
}

std::string functionName(std::string_view header) {
  const bool entry = header.find(".entry") != std::string_view::npos;
  auto rest = trim(header.substr(header.find(entry ? ".entry" : ".func") + (entry ? 6 : 5)));
  if (!rest.empty() && rest.front() == '(') rest = trim(rest.substr(std::min(rest.size(), rest.find(')') + 1)));
  const auto end = rest.find_first_of("( \t\n");
  const auto name = rest.substr(0, end);
  return name.empty() ? std::string("(unnamed)") : std::string(name);
}

}  // namespace launchlab::ptx
