// Run files (.llrun): a ZIP archive of run.json and the run's arrays as .npy, through libarchive.
#include "launchlab/files/run_file.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "launchlab/engine/errors.h"
#include "launchlab/files/atomic_file.h"
#include "launchlab/files/bounded_file.h"
#include "launchlab/files/json_value.h"
#include "launchlab/files/json_within.h"
#include "launchlab/files/npy.h"
#include "launchlab/worker/result_check.h"

namespace launchlab::runfile {

namespace {

constexpr std::string_view kRunJson = "run.json";
/// Values in run.json (parseJsonWithin), counted before its tree is built: what launchlab writes within
/// kMaxJsonBytes holds fewer (pretty-printed, a value takes 9 bytes or more), and a tree of this many stays tens of
/// MiB. Without it, 16 MiB of "1," parsed into a tree of 400 MiB, and under a memory limit freeing it aborted the
/// program.
constexpr std::size_t kMaxJsonValues = std::size_t(1) << 21;
constexpr std::string_view kInputsFolder = "inputs";

// ---- writing --------------------------------------------------------------------------------------------------

struct ArchiveDeleter {
  void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryDeleter {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

la_ssize_t appendTo(archive*, void* client, const void* buffer, size_t length) {
  static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), length);
  return la_ssize_t(length);
}

class ZipWriter {
 public:
  explicit ZipWriter(std::string path) : m_path(std::move(path)), m_a(archive_write_new()) {
    if (!m_a || archive_write_set_format_zip(m_a.get()) != ARCHIVE_OK ||
        archive_write_set_bytes_in_last_block(m_a.get(), 1) != ARCHIVE_OK ||
        archive_write_open(m_a.get(), &m_bytes, nullptr, appendTo, nullptr) != ARCHIVE_OK)
      fail("cannot start the archive");
  }
  /// One member from its pieces; deflated or stored (arrays of numbers hardly compress).
  void add(const std::string& name, std::initializer_list<std::string_view> pieces, bool deflate) {
    archive* a = m_a.get();
    if ((deflate ? archive_write_zip_set_compression_deflate(a) : archive_write_zip_set_compression_store(a)) <
        ARCHIVE_OK)
      fail("cannot choose the compression of " + name);
    std::unique_ptr<archive_entry, EntryDeleter> e(archive_entry_new());
    std::int64_t size = 0;
    for (auto p : pieces) size += std::int64_t(p.size());
    archive_entry_set_pathname(e.get(), name.c_str());
    archive_entry_set_filetype(e.get(), AE_IFREG);
    archive_entry_set_perm(e.get(), 0644);
    archive_entry_set_size(e.get(), size);
    archive_entry_set_mtime(e.get(), std::time(nullptr), 0);
    if (archive_write_header(a, e.get()) < ARCHIVE_OK) fail("cannot add " + name);
    for (auto p : pieces)
      for (std::size_t done = 0; done < p.size();) {
        const la_ssize_t n = archive_write_data(a, p.data() + done, p.size() - done);
        if (n <= 0) fail("cannot write " + name);
        done += std::size_t(n);
      }
  }
  std::string finish() {
    if (archive_write_close(m_a.get()) != ARCHIVE_OK) fail("cannot finish the archive");
    return std::move(m_bytes);
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    const char* why = m_a ? archive_error_string(m_a.get()) : nullptr;
    throw std::runtime_error(m_path + ": " + what + (why ? std::string(": ") + why : std::string()));
  }
  std::string m_path;
  std::string m_bytes;
  std::unique_ptr<archive, ArchiveDeleter> m_a;
};

void addArray(ZipWriter& zip, const std::string& folder, const HostArray& a, const std::string& path) {
  if (!safeFileName(folder) || !safeFileName(a.name()))
    throw std::runtime_error(path + ": cannot store array '" + folder + "/" + a.name() + "': names are [A-Za-z0-9_.-]");
  const std::string header = npy::serializeHeader(a);
  zip.add(folder + "/" + a.name() + ".npy", {header, std::string_view(static_cast<const char*>(a.data()), a.bytes())},
          false);
}

// ---- reading --------------------------------------------------------------------------------------------------

struct ReadDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};

[[noreturn]] void bad(const std::string& path, const std::string& why) { throw BadInput(path + ": " + why); }

/// What a member's name says it holds: run.json, an input, or an output of an implementation.
struct MemberName {
  enum class Kind { Json, Input, Output } kind = Kind::Json;
  std::string folder, array;
};

std::optional<MemberName> classify(std::string_view name) {
  if (name == kRunJson) return MemberName{};
  const auto slash = name.find('/');
  if (slash == std::string_view::npos || name.size() < 4 || name.substr(name.size() - 4) != ".npy") return std::nullopt;
  const std::string_view folder = name.substr(0, slash), array = name.substr(slash + 1, name.size() - slash - 5);
  if (!safeFileName(folder) || !safeFileName(array)) return std::nullopt;
  return MemberName{folder == kInputsFolder ? MemberName::Kind::Input : MemberName::Kind::Output, std::string(folder),
                    std::string(array)};
}

class ZipReader {
 public:
  /// The archive is read through its central directory (the seekable reader): a file cut anywhere, even after the
  /// last member's data, is refused rather than read in part.
  explicit ZipReader(const std::string& path) : m_path(path), m_a(archive_read_new()) {
    std::string why;
    m_fd.fd = files::openRegularFile(path, why);  // a FIFO swapped in after a check would block a plain open
    if (m_fd.fd < 0) throw BadInput(why);
    struct stat st {};
    const std::uint64_t size = ::fstat(m_fd.fd, &st) == 0 ? std::uint64_t(st.st_size) : 0;
    if (size > kMaxTotalBytes) bad(path, "larger than a run file may be");
    // Arrays are stored, never compressed: together they hold at most the file's own bytes, so a member that
    // inflates beyond them (a decompression bomb) is refused before it is read. run.json alone is deflated.
    m_arrayBudget = size;
    m_jsonLimit = std::min(kMaxJsonBytes, size * kMaxInflation);
    if (!m_a || archive_read_support_format_zip_seekable(m_a.get()) != ARCHIVE_OK ||
        archive_read_open_fd(m_a.get(), m_fd.fd, 1 << 16) != ARCHIVE_OK)
      failArchive("not a LaunchLab run file");
  }
  /// The next member's name (directories skipped), or nullopt at the end.
  std::optional<std::string> next() {
    archive_entry* e = nullptr;
    for (;;) {
      const int rc = archive_read_next_header(m_a.get(), &e);
      if (rc == ARCHIVE_EOF) return std::nullopt;
      if (rc < ARCHIVE_WARN) failArchive("not a LaunchLab run file, or a truncated one");
      if (++m_members > kMaxMembers) bad(m_path, "more than " + std::to_string(kMaxMembers) + " members");
      const char* name = archive_entry_pathname(e);
      if (!name) bad(m_path, "a member without a readable name");
      if (archive_entry_filetype(e) == AE_IFDIR) continue;
      if (archive_entry_filetype(e) != AE_IFREG) bad(m_path, std::string("member '") + name + "' is not a plain file");
      m_declared = archive_entry_size_is_set(e) ? std::optional<std::int64_t>(archive_entry_size(e)) : std::nullopt;
      return std::string(name);
    }
  }
  /// run.json's bytes: deflated, at most kMaxJsonBytes and kMaxInflation times the file's size.
  std::string json(const std::string& name) { return data(name, m_jsonLimit, nullptr); }
  /// An array member's bytes: stored, so all of them together fit in the file (and each in kMaxArrayBytes).
  std::string array(const std::string& name) {
    return data(name, std::min(kMaxArrayBytes, m_arrayBudget), &m_arrayBudget);
  }

 private:
  /// The current member's bytes, at most `limit` of them (and taken from `*budget`), checked against its declared
  /// size before anything is allocated, then read into one allocation.
  std::string data(const std::string& name, std::uint64_t limit, std::uint64_t* budget) {
    if (m_declared && (*m_declared < 0 || std::uint64_t(*m_declared) > limit))
      bad(m_path, "member '" + name + "' declares " + std::to_string(*m_declared) + " bytes, more than the " +
                      std::to_string(limit) + " allowed" + (budget ? " (arrays are stored uncompressed)" : ""));
    std::string out;
    if (m_declared) out.reserve(std::size_t(*m_declared));
    char buffer[1 << 16];
    for (;;) {
      const la_ssize_t n = archive_read_data(m_a.get(), buffer, sizeof buffer);
      if (n == 0) break;
      if (n < 0) failArchive("member '" + name + "' is damaged or truncated");
      if (out.size() + std::size_t(n) > limit) bad(m_path, "member '" + name + "' is larger than allowed");
      out.append(buffer, std::size_t(n));
    }
    if (m_declared && std::uint64_t(*m_declared) != out.size()) bad(m_path, "member '" + name + "' is truncated");
    if (budget) *budget -= out.size();
    return out;
  }

  [[noreturn]] void failArchive(const std::string& what) {
    const char* why = archive_error_string(m_a.get());
    bad(m_path, what + (why ? std::string(" (") + why + ")" : std::string()));
  }
  struct Fd {
    int fd = -1;
    ~Fd() {
      if (fd >= 0) ::close(fd);
    }
  };
  std::string m_path;
  Fd m_fd;  // closed after the archive (members go in reverse order)
  std::unique_ptr<archive, ReadDeleter> m_a;
  std::optional<std::int64_t> m_declared;
  std::uint64_t m_members = 0, m_arrayBudget = 0, m_jsonLimit = 0;
};

struct Contents {
  std::optional<std::string> json;
  std::vector<HostArray> inputs;
  std::vector<std::pair<std::string, HostArray>> outputs;  ///< implementation id, array
};

Contents readMembers(const std::string& path) {
  ZipReader zip(path);
  Contents c;
  std::map<std::string, bool> seen;
  while (auto name = zip.next()) {
    const auto member = classify(*name);
    if (!member)
      bad(path, "unexpected member '" + *name +
                    "' (a run file holds run.json, inputs/<name>.npy and "
                    "<implementation>/<output>.npy)");
    if (seen[*name]) bad(path, "member '" + *name + "' appears twice");
    seen[*name] = true;
    if (member->kind == MemberName::Kind::Json) {
      c.json = zip.json(*name);
      continue;
    }
    HostArray a = npy::parse(zip.array(*name), path + ": " + *name, member->array);
    if (member->kind == MemberName::Kind::Input)
      c.inputs.push_back(std::move(a));
    else
      c.outputs.emplace_back(member->folder, std::move(a));
  }
  if (!c.json) bad(path, "no run.json: not a LaunchLab run file");
  return c;
}

}  // namespace

void save(const std::string& path, const RunResult& r) { files::writeAtomic(path, serialize(path, r)); }

std::string serialize(const std::string& path, const RunResult& r) {
  ZipWriter zip(path);
  const std::string json = dumpJson(nlohmann::ordered_json(r), 2) + "\n";
  zip.add(std::string(kRunJson), {json}, true);
  for (const auto& a : r.inputs) addArray(zip, std::string(kInputsFolder), a, path);
  for (const auto& impl : r.impls) {
    if (impl.implId == kInputsFolder) throw std::runtime_error(path + ": an implementation may not be called inputs");
    for (const auto& a : impl.outputs) addArray(zip, impl.implId, a, path);
  }
  return zip.finish();
}

RunResult load(const std::string& path) {
  Contents c = readMembers(path);
  RunResult r =
      rethrowAsBadInput(path + ": run.json", [&] { return parseJsonWithin(*c.json, kMaxJsonValues).get<RunResult>(); });
  if (r.impls.size() > kMaxImpls)
    bad(path, std::to_string(r.impls.size()) + " implementations, more than the " + std::to_string(kMaxImpls) +
                  " a run holds");
  r.inputs = std::move(c.inputs);
  for (auto& entry : c.outputs) {  // not a structured binding: clang 14 (the fuzz build) cannot capture one
    const std::string& implId = entry.first;
    auto impl = std::find_if(r.impls.begin(), r.impls.end(), [&](const ImplResult& i) { return i.implId == implId; });
    if (impl == r.impls.end()) bad(path, "arrays of '" + implId + "', an implementation run.json does not list");
    impl->outputs.push_back(std::move(entry.second));
  }
  if (const std::string why = checkResultArrays(r); !why.empty()) bad(path, why);  // as a worker's reply is checked
  return r;
}

std::string recordedOn(const RunResult& r) {
  if (!r.slurm.inJob()) return recordedOn(r.device, r.timestamp);
  DeviceStatus where = r.device;  // the job step goes with the machine: "GPU (driver) in Slurm job 12 on node n1, date"
  const std::string job = " in Slurm job " + r.slurm.jobId + " on node " + r.slurm.node +
                          (r.slurm.gpus.empty() ? "" : " (GPUs " + r.slurm.gpus + ")");
  std::string text = recordedOn(where, r.timestamp);
  const auto comma = text.rfind(", ");
  return text.insert(comma == std::string::npos ? text.size() : comma, job);
}

std::string recordedOn(const DeviceStatus& device, const std::string& timestamp) {
  std::string where;
  if (device.available) {
    const int v = device.info.driverVersion;
    where = device.info.name + " (driver " + std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10) + ")";
  } else {
    where = "a machine without a usable GPU" + (device.reason.empty() ? std::string() : " (" + device.reason + ")");
  }
  std::string when = timestamp;  // ISO 8601 UTC: 2026-11-23T14:02:33Z -> 2026-11-23 14:02 UTC
  if (when.size() == 20 && when[10] == 'T' && when.back() == 'Z')
    when = when.substr(0, 10) + " " + when.substr(11, 5) + " UTC";
  return where + ", " + (when.empty() ? "date unknown" : when);
}

}  // namespace launchlab::runfile
