#pragma once
/// NumPy .npy files (format 1.0/2.0/3.0): little-endian f4, f8, i4, u4 and u1, C order.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "launchlab/engine/array.h"

namespace launchlab::npy {

struct Header {
  DType dtype = DType::F32;
  std::vector<std::size_t> shape;
  std::size_t dataOffset = 0;  ///< bytes from the start of the file to the data
  std::uint64_t elements() const {
    std::uint64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
};

/// Parses the header dictionary text ("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }").
/// Throws BadInput with a one-line reason.
Header parseHeaderDict(const std::string& dict);
/// Reads and checks only the header of a file (and that the file holds all the data it announces).
Header loadHeader(const std::string& path);
/// Reads an .npy file. Throws BadInput with a one-line reason (missing file, bad magic, big-endian,
/// unsupported dtype, Fortran order, truncated data…). The array is named `arrayName`.
HostArray load(const std::string& path, const std::string& arrayName = {});
/// load() of a file whose header was checked earlier (loadHeader): the header read now, with the data from the same
/// open file, must still announce `checked`'s dtype and shape, else BadInput "<path> changed after it was checked
/// (…)", so a file replaced between the check and the read never hands a run fewer elements than it expects.
HostArray load(const std::string& path, const std::string& arrayName, const Header& checked);
/// Reads an .npy file held in memory (a member of a run file): the same checks as load(), and no bytes may follow
/// the data. `where` names it in the messages.
HostArray parse(std::string_view bytes, const std::string& where, const std::string& arrayName = {});
/// The .npy header (magic, version, dictionary) for `a`: format 1.0, or 2.0 when the header needs it.
std::string serializeHeader(const HostArray& a);
/// Writes atomically (temporary file + rename). Throws std::runtime_error with the reason on failure.
void save(const std::string& path, const HostArray& a);

}  // namespace launchlab::npy
