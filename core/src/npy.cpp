#include "launchlab/io/npy.h"

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include "launchlab/errors.h"
#include "launchlab/io/atomic_file.h"

namespace launchlab::npy {

namespace {
constexpr char kMagic[] = "\x93NUMPY";

std::optional<DType> dtypeFromDescr(const std::string& d, std::string& why) {
  if (d == "<f4") return DType::F32;
  if (d == "<f8") return DType::F64;
  if (d == "<i4") return DType::I32;
  if (d == "<u4") return DType::U32;
  if (d == "|u1" || d == "<u1") return DType::U8;
  if (!d.empty() && d[0] == '>') why = "big-endian data ('" + d + "') is not supported: save it little-endian";
  else why = "unsupported dtype '" + d + "' (supported: <f4 float32, <f8 float64, <i4 int32, <u4 uint32, |u1 uint8)";
  return std::nullopt;
}

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw BadInput((path.empty() ? std::string("npy") : path) + ": " + why);
}
}  // namespace

Header parseHeaderDict(const std::string& dict) {
  Header h;
  std::smatch m;
  static const std::regex descrRe(R"('descr'\s*:\s*'([^']*)')");
  static const std::regex fortranRe(R"('fortran_order'\s*:\s*(True|False))");
  static const std::regex shapeRe(R"('shape'\s*:\s*\(([^)]*)\))");
  if (!std::regex_search(dict, m, descrRe)) throw BadInput("malformed .npy header: no 'descr'");
  std::string why;
  auto dt = dtypeFromDescr(m[1].str(), why);
  if (!dt) throw BadInput(why);
  h.dtype = *dt;
  if (!std::regex_search(dict, m, fortranRe)) throw BadInput("malformed .npy header: no 'fortran_order'");
  if (m[1].str() == "True") throw BadInput("Fortran-ordered arrays are not supported: save with np.ascontiguousarray");
  if (!std::regex_search(dict, m, shapeRe)) throw BadInput("malformed .npy header: no 'shape'");
  std::string dims = m[1].str();
  std::size_t pos = 0;
  while (pos < dims.size()) {
    while (pos < dims.size() && (std::isspace(static_cast<unsigned char>(dims[pos])) || dims[pos] == ',')) ++pos;
    if (pos >= dims.size()) break;
    std::size_t end = pos;
    while (end < dims.size() && std::isdigit(static_cast<unsigned char>(dims[end]))) ++end;
    if (end == pos) throw BadInput("malformed .npy header: bad shape '(" + dims + ")'");
    h.shape.push_back(static_cast<std::size_t>(std::stoull(dims.substr(pos, end - pos))));
    pos = end;
  }
  return h;
}

namespace {
Header readHeader(std::ifstream& f, const std::string& path, std::uintmax_t fileSize) {
  char magic[6];
  if (!f.read(magic, 6) || std::memcmp(magic, kMagic, 6) != 0) bad(path, "not a NumPy .npy file (bad magic)");
  unsigned char ver[2];
  if (!f.read(reinterpret_cast<char*>(ver), 2)) bad(path, "truncated .npy header");
  std::size_t headerLen = 0;
  std::size_t prefix = 0;
  if (ver[0] == 1) {
    unsigned char l[2];
    if (!f.read(reinterpret_cast<char*>(l), 2)) bad(path, "truncated .npy header");
    headerLen = l[0] | (l[1] << 8);
    prefix = 10;
  } else if (ver[0] == 2 || ver[0] == 3) {
    unsigned char l[4];
    if (!f.read(reinterpret_cast<char*>(l), 4)) bad(path, "truncated .npy header");
    headerLen = l[0] | (l[1] << 8) | (std::size_t(l[2]) << 16) | (std::size_t(l[3]) << 24);
    prefix = 12;
  } else {
    bad(path, "unsupported .npy format version " + std::to_string(ver[0]));
  }
  if (headerLen > 1 << 20) bad(path, "implausible .npy header length");
  std::string dict(headerLen, '\0');
  if (!f.read(dict.data(), std::streamsize(headerLen))) bad(path, "truncated .npy header");
  Header h;
  try {
    h = parseHeaderDict(dict);
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
  if (!std::filesystem::is_regular_file(path, ec)) bad(path, "no such file");
  return std::filesystem::file_size(path, ec);
}
}  // namespace

Header loadHeader(const std::string& path) {
  auto size = sizeOf(path);
  std::ifstream f(path, std::ios::binary);
  if (!f) bad(path, "cannot open for reading");
  return readHeader(f, path, size);
}

HostArray load(const std::string& path, const std::string& arrayName) {
  auto size = sizeOf(path);
  std::ifstream f(path, std::ios::binary);
  if (!f) bad(path, "cannot open for reading");
  Header h = readHeader(f, path, size);
  HostArray a(arrayName, h.dtype, h.shape);
  f.seekg(std::streamoff(h.dataOffset));
  if (a.bytes() && !f.read(static_cast<char*>(a.data()), std::streamsize(a.bytes()))) bad(path, "truncated data");
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
