#pragma once
/// Run files (.llrun): one run (its request, device and host, timings, verification, and its arrays) in one file,
/// written by `launchlab-cli run --save-run` and the window's "Save run…", opened by `launchlab-cli show` and the
/// window's "Open run…" on any machine, with or without a GPU.
///
/// The format (docs/JSON_SCHEMA.md, "Run files"): a ZIP archive (written through libarchive) holding
///   run.json                 the run's `launchlab.run` document (json.h / json_value.h), deflated;
///   inputs/<input>.npy       each kept input, stored;
///   <impl>/<output>.npy      each kept output of each implementation, stored;
/// and nothing else. Reading takes untrusted files: the file, run.json, each member and their sum are bounded
/// (limits below), member names must be one of the forms above with names of [A-Za-z0-9_.-] (no "..", no
/// absolute paths, no other folders), every array's implementation must be in run.json, and any bad, truncated or
/// unexpected content is one BadInput "<path>: <reason>".
#include <cstdint>
#include <string>

#include "launchlab/engine/result.h"

namespace launchlab::runfile {

inline constexpr const char* kExtension = ".llrun";
/// run.json: a run's JSON is kilobytes (tens of MiB of it parse into a tree of hundreds of MiB, and a second
/// allocation failing while that tree is freed would abort the program).
inline constexpr std::uint64_t kMaxJsonBytes = 16ull << 20;
/// Implementations in one run: a workload has a dozen; thousands would only cost the window its memory to draw.
inline constexpr std::size_t kMaxImpls = 256;
inline constexpr std::uint64_t kMaxArrayBytes = 8ull << 30;   ///< one .npy member
inline constexpr std::uint64_t kMaxTotalBytes = 16ull << 30;  ///< the file (arrays are stored: all members)
inline constexpr std::uint64_t kMaxMembers = 4096;
/// run.json, the one deflated member, holds at most this many times the file's size (deflate's own limit is about
/// 1032:1). The arrays are stored uncompressed, so together they hold at most the file's size: a member that
/// would inflate beyond it (a decompression bomb) is refused from its declared size, before it is read.
inline constexpr std::uint64_t kMaxInflation = 1100;

/// Writes `r` (its kept arrays included) to `path` atomically. Throws std::runtime_error naming the path.
void save(const std::string& path, const RunResult& r);
/// The bytes save() writes (for writing them together with other files: files::StagedWrites); `path` names the
/// file in messages. Throws std::runtime_error.
std::string serialize(const std::string& path, const RunResult& r);
/// Reads a run file. Throws BadInput "<path>: <reason>" for anything but a well-formed run file.
RunResult load(const std::string& path);

/// Where and when the run was measured, for labels: "NVIDIA H200 (driver 13.0), 2026-11-23 14:02 UTC" or
/// "a machine without a usable GPU (no NVIDIA driver), 2026-11-23 14:02 UTC".
std::string recordedOn(const RunResult& r);
/// The same for a device and an ISO 8601 UTC timestamp (a recorded sweep's).
std::string recordedOn(const DeviceStatus& device, const std::string& timestamp);

}  // namespace launchlab::runfile
