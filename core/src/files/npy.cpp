#include "launchlab/files/npy.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "launchlab/engine/errors.h"
#include "launchlab/files/atomic_file.h"
#include "launchlab/files/bounded_file.h"

namespace launchlab::npy {

namespace {
constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMaxHeaderBytes = 10000;

std::optional<DType> dtypeFromDescr(const std::string& d, std::string& why) {
  if (d == "<f4") return DType::F32;
  if (d == "<f8") return DType::F64;
  if (d == "<i4") return DType::I32;
  if (d == "<i8") return DType::I64;
  if (d == "<i2") return DType::I16;
  if (d == "<u4") return DType::U32;
  if (d == "|u1" || d == "<u1") return DType::U8;
  if (!d.empty() && d[0] == '>')
    why = "big-endian data ('" + d + "') is not supported: save it little-endian";
  else
    why = "unsupported dtype '" + d +
          "' (supported: <f4 float32, <f8 float64, <i2 int16, <i4 int32, <i8 int64, <u4 uint32, |u1 uint8)";
  return std::nullopt;
}

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw BadInput((path.empty() ? std::string("npy") : path) + ": " + why);
}
}  // namespace

namespace {

/// Reads the header's Python dict literal ({'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }) one token
/// at a time, in one pass over a bounded string: no backtracking, no recursion, every failure one BadInput.
class DictReader {
 public:
  explicit DictReader(std::string_view text) : m_s(text) {}

  Header parse() {
    Header h;
    bool haveDescr = false, haveOrder = false, haveShape = false;
    expect('{');
    while (!peek('}')) {
      const std::string key = quoted();
      expect(':');
      if (key == "descr")
        haveDescr = once(haveDescr, key), h.dtype = dtype(quoted());
      else if (key == "fortran_order")
        haveOrder = once(haveOrder, key), fortranOrder();
      else if (key == "shape")
        haveShape = once(haveShape, key), h.shape = tuple();
      else
        fail("unexpected key '" + key + "'");
      if (!peek('}')) expect(',');
    }
    expect('}');
    skipSpace();
    if (m_i != m_s.size()) fail("unexpected text after the dict");
    if (!haveDescr) fail("no 'descr'");
    if (!haveOrder) fail("no 'fortran_order'");
    if (!haveShape) fail("no 'shape'");
    return h;
  }

 private:
  [[noreturn]] static void fail(const std::string& why) { throw BadInput("malformed .npy header: " + why); }
  static bool once(bool seen, const std::string& key) {
    if (seen) fail("'" + key + "' given twice");
    return true;
  }
  void skipSpace() {
    while (m_i < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_i]))) ++m_i;
  }
  bool peek(char c) {
    skipSpace();
    return m_i < m_s.size() && m_s[m_i] == c;
  }
  void expect(char c) {
    if (!peek(c)) fail(std::string("expected '") + c + "'");
    ++m_i;
  }
  std::string quoted() {
    skipSpace();
    if (m_i >= m_s.size() || (m_s[m_i] != '\'' && m_s[m_i] != '"')) fail("expected a quoted string");
    const char q = m_s[m_i++];
    const std::size_t end = m_s.find(q, m_i);
    if (end == std::string_view::npos || end - m_i > 64) fail("unterminated or overlong string");
    std::string v(m_s.substr(m_i, end - m_i));
    m_i = end + 1;
    return v;
  }
  static DType dtype(const std::string& descr) {
    std::string why;
    if (auto dt = dtypeFromDescr(descr, why)) return *dt;
    throw BadInput(why);
  }
  void fortranOrder() {
    skipSpace();
    if (m_s.substr(m_i, 5) == "False")
      m_i += 5;
    else if (m_s.substr(m_i, 4) == "True")
      throw BadInput("Fortran-ordered arrays are not supported: save with np.ascontiguousarray");
    else
      fail("'fortran_order' must be True or False");
  }
  std::vector<std::size_t> tuple() {
    expect('(');
    std::vector<std::size_t> dims;
    std::uint64_t elements = 1;
    while (!peek(')')) {
      if (dims.size() >= 32) fail("more than 32 dimensions");
      std::uint64_t d = 0;
      const std::size_t start = m_i;
      while (m_i < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_i]))) {
        if (d > (std::uint64_t(1) << 59)) fail("a dimension is too large");
        d = d * 10 + std::uint64_t(m_s[m_i++] - '0');
      }
      if (m_i == start) fail("bad shape");
      if (d != 0 && elements > (std::uint64_t(1) << 62) / d) fail("the shape holds too many elements");
      elements *= d;
      dims.push_back(std::size_t(d));
      if (!peek(')')) expect(',');
    }
    expect(')');
    return dims;
  }

  std::string_view m_s;
  std::size_t m_i = 0;
};

}  // namespace

Header parseHeaderDict(const std::string& dict) { return DictReader(dict).parse(); }

namespace {
std::size_t littleEndian(std::string_view b, std::size_t at, std::size_t bytes) {
  std::size_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) v |= std::size_t(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

/// The header at the start of `b` (at least the magic, version, length and dictionary, when the file holds them) of
/// a file of `fileSize` bytes, checked to hold all the data it announces.
Header headerFrom(std::string_view b, const std::string& path, std::uintmax_t fileSize) {
  if (b.size() < 6 || std::memcmp(b.data(), kMagic, 6) != 0) bad(path, "not a NumPy .npy file (bad magic)");
  if (b.size() < 8) bad(path, "truncated .npy header");
  const int version = static_cast<unsigned char>(b[6]);
  if (version < 1 || version > 3) bad(path, "unsupported .npy format version " + std::to_string(version));
  const std::size_t lengthBytes = version == 1 ? 2 : 4;
  const std::size_t prefix = 8 + lengthBytes;
  if (b.size() < prefix) bad(path, "truncated .npy header");
  const std::size_t headerLen = littleEndian(b, 8, lengthBytes);
  // NumPy refuses headers over 10000 bytes by default (numpy.lib.format's max_header_size); so do we.
  if (headerLen > kMaxHeaderBytes) bad(path, "implausible .npy header length " + std::to_string(headerLen));
  if (b.size() < prefix + headerLen) bad(path, "truncated .npy header");
  Header h;
  try {
    h = parseHeaderDict(std::string(b.substr(prefix, headerLen)));
  } catch (const BadInput& e) {
    bad(path, e.what());
  }
  h.dataOffset = prefix + headerLen;
  const std::uintmax_t need = h.dataOffset + h.elements() * dtypeSize(h.dtype);
  if (fileSize < need)
    bad(path, "truncated data: the header announces " + std::to_string(h.elements()) + " elements (" +
                  std::to_string(need - h.dataOffset) + " bytes) but the file holds " +
                  std::to_string(fileSize > h.dataOffset ? fileSize - h.dataOffset : 0));
  return h;
}

std::uintmax_t sizeOf(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) bad(path, "no such file");
  if (!std::filesystem::is_regular_file(path, ec)) bad(path, "not a regular file (a folder, a device or a pipe)");
  return std::filesystem::file_size(path, ec);
}

/// Opens `path` and reads its header; `f` is left open for the data.
Header openAndReadHeader(const std::string& path, std::ifstream& f) {
  const auto size = sizeOf(path);
  // Opened without blocking and checked (a FIFO swapped in after sizeOf() would block a plain open), then read
  // through /proc/self/fd: the same open file, never the name again.
  std::string why;
  const int fd = files::openRegularFile(path, why);
  if (fd < 0) throw BadInput(why);
  f.open("/proc/self/fd/" + std::to_string(fd), std::ios::binary);
  ::close(fd);
  if (!f) {  // no /proc here: the name, checked a moment ago
    f.clear();
    f.open(path, std::ios::binary);
  }
  if (!f) bad(path, "cannot open for reading");
  std::string prefix(std::size_t(std::min<std::uintmax_t>(size, 12 + kMaxHeaderBytes)), '\0');
  if (!f.read(prefix.data(), std::streamsize(prefix.size()))) bad(path, "cannot read");
  return headerFrom(prefix, path, size);
}
}  // namespace

Header loadHeader(const std::string& path) {
  std::ifstream f;
  return openAndReadHeader(path, f);
}

namespace {
std::string describe(const Header& h) {
  std::string s = std::string(dtypeName(h.dtype)) + " (";
  for (std::size_t i = 0; i < h.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(h.shape[i]);
  return s + (h.shape.size() == 1 ? ",)" : ")");
}

HostArray loadChecked(const std::string& path, const std::string& arrayName, const Header* checked) {
  std::ifstream f;
  const Header h = openAndReadHeader(path, f);
  if (checked && (h.dtype != checked->dtype || h.shape != checked->shape))
    bad(path, "changed after it was checked (now " + describe(h) + ", checked as " + describe(*checked) + ")");
  HostArray a(arrayName, h.dtype, h.shape);
  f.seekg(std::streamoff(h.dataOffset));
  if (a.bytes() && !f.read(static_cast<char*>(a.data()), std::streamsize(a.bytes()))) bad(path, "truncated data");
  return a;
}
}  // namespace

HostArray load(const std::string& path, const std::string& arrayName) { return loadChecked(path, arrayName, nullptr); }

HostArray load(const std::string& path, const std::string& arrayName, const Header& checked) {
  return loadChecked(path, arrayName, &checked);
}

HostArray parse(std::string_view bytes, const std::string& where, const std::string& arrayName) {
  const Header h = headerFrom(bytes, where, bytes.size());
  HostArray a(arrayName, h.dtype, h.shape);
  if (bytes.size() != h.dataOffset + a.bytes()) bad(where, "unexpected bytes after the array's data");
  if (a.bytes()) std::memcpy(a.data(), bytes.data() + h.dataOffset, a.bytes());
  return a;
}

std::string serializeHeader(const HostArray& a) {
  std::string dict = "{'descr': '" + std::string(dtypeNumpyDescr(a.dtype())) + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < a.shape().size(); ++i) dict += (i ? ", " : "") + std::to_string(a.shape()[i]);
  if (a.shape().size() == 1) dict += ",";
  dict += "), }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes; end with '\n'.
  std::size_t prefix = 10;
  std::size_t total = prefix + dict.size() + 1;
  int version = 1;
  if ((total + 63) / 64 * 64 - prefix > 65535) {
    version = 2;
    prefix = 12;
    total = prefix + dict.size() + 1;
  }
  std::size_t padded = (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict += '\n';
  std::string out(kMagic, 6);
  out += char(version);
  out += char(0);
  const std::size_t hl = dict.size();
  out += char(hl & 0xFF);
  out += char((hl >> 8) & 0xFF);
  if (version == 2) {
    out += char((hl >> 16) & 0xFF);
    out += char((hl >> 24) & 0xFF);
  }
  out += dict;
  return out;
}

void save(const std::string& path, const HostArray& a) {
  const std::string header = serializeHeader(a);
  files::writeAtomic(path, {header, std::string_view(static_cast<const char*>(a.data()), a.bytes())});
}

}  // namespace launchlab::npy
