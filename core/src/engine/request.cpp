#include "launchlab/engine/request.h"

#include <algorithm>
#include <cctype>
#include <climits>

#include "launchlab/files/parse.h"

namespace launchlab {

std::vector<std::string> splitList(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    while (!cur.empty() && std::isspace(static_cast<unsigned char>(cur.back()))) cur.pop_back();
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (char c : text) {
    if (c == ',')
      flush();
    else if (!cur.empty() || !std::isspace(static_cast<unsigned char>(c)))
      cur += c;
  }
  flush();
  return out;
}

namespace {

bool isAuto(const std::string& text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t == "auto";
}

void parseLaunchField(const char* field, LaunchPart part, const std::string& text, std::optional<Dim3>& out,
                      std::vector<RequestProblem>& problems) {
  if (isAuto(text)) return;
  std::string err;
  if (auto d = parseLaunchDim3(text, part, &err))
    out = *d;
  else
    problems.push_back({field, err});
}

/// A whole number for `field`; values beyond int are clamped so that the engine's range rule reports them.
void parseCount(const char* field, const std::string& text, int& out, std::vector<RequestProblem>& problems) {
  auto v = parseInteger(text);
  if (!v) {
    problems.push_back({field, std::string(field) + " must be a whole number (got '" + text + "')"});
    return;
  }
  out = static_cast<int>(std::clamp<long long>(*v, INT_MIN, INT_MAX));
}

void parseSeed(const std::string& text, std::uint64_t& out, std::vector<RequestProblem>& problems) {
  const auto v = parseUnsigned(text);  // the whole uint64 range: every seed a result records can be given again
  if (!v)
    problems.push_back({"seed", "seed must be a whole number from 0 to 18446744073709551615 (got '" + text + "')"});
  else
    out = *v;
}

/// A device index: a whole number >= 0 (whether that device exists is the engine's to say).
void parseDevice(const std::string& text, std::optional<int>& out, std::vector<RequestProblem>& problems) {
  if (text.empty()) return;
  auto v = parseInteger(text);
  if (!v || *v < 0)
    problems.push_back({"device", "device must be a whole number >= 0 (got '" + text + "')"});
  else
    out = static_cast<int>(std::min<long long>(*v, INT_MAX));
}

}  // namespace

ParsedRequest parseRequest(const RequestText& t) {
  ParsedRequest p;
  RunRequest& r = p.request;
  r.workload = t.workload;
  if (!t.n.empty()) {
    std::string err;
    if (auto n = parseSize(t.n, &err))
      r.n = *n;
    else
      p.problems.push_back({"n", err});
  }
  if (!t.dtype.empty()) {
    if (auto d = parseDType(t.dtype))
      r.dtype = *d;
    else
      p.problems.push_back({"dtype", unknownDTypeMessage(t.dtype)});
  }
  parseLaunchField("block", LaunchPart::Block, t.block, r.launch.block, p.problems);
  parseLaunchField("grid", LaunchPart::Grid, t.grid, r.launch.grid, p.problems);
  r.impls = splitList(t.impls);
  if (r.impls.empty()) p.problems.push_back({"impl", "no implementation given (ids from 'list', or all)"});
  parseCount("reps", t.reps, r.reps, p.problems);
  parseCount("warmup", t.warmup, r.warmup, p.problems);
  parseSeed(t.seed, r.seed, p.problems);
  parseDevice(t.device, r.device, p.problems);
  r.params = t.params;
  r.inputFiles = t.inputFiles;
  return p;
}

bool setRequestField(RequestText& t, std::string_view field, const std::string& value) {
  if (field.rfind("param:", 0) == 0) {
    t.params[std::string(field.substr(6))] = value;
    return true;
  }
  if (field.rfind("input:", 0) == 0) {
    t.inputFiles[std::string(field.substr(6))] = value;
    return true;
  }
  std::string* slots[] = {&t.n, &t.dtype, &t.block, &t.grid, &t.impls, &t.reps, &t.warmup, &t.seed, &t.device};
  static constexpr std::string_view names[] = {"n",    "dtype",  "block", "grid",  "impl",
                                               "reps", "warmup", "seed",  "device"};
  for (std::size_t i = 0; i < std::size(names); ++i) {
    if (field == names[i]) {
      *slots[i] = value;
      return true;
    }
  }
  return false;
}

RequestText requestText(const RunRequest& r) {
  RequestText t;
  t.workload = r.workload;
  if (r.n) t.n = std::to_string(*r.n);
  if (r.dtype) t.dtype = std::string(dtypeName(*r.dtype));
  if (r.launch.block) t.block = formatDim3(*r.launch.block);
  if (r.launch.grid) t.grid = formatDim3(*r.launch.grid);
  t.impls.clear();
  for (const auto& i : r.impls) t.impls += (t.impls.empty() ? "" : ",") + i;
  if (t.impls.empty()) t.impls = "all";
  t.reps = std::to_string(r.reps);
  t.warmup = std::to_string(r.warmup);
  t.seed = std::to_string(r.seed);
  if (r.device) t.device = std::to_string(*r.device);
  t.params = r.params;
  t.inputFiles = r.inputFiles;
  return t;
}

std::vector<RequestProblem> launchAdvice(const LaunchRequest& launch, const DeviceLimits& limits) {
  std::vector<RequestProblem> out;
  const std::uint64_t warp = std::uint64_t(std::max(1, limits.warpSize));
  if (launch.block && launch.block->count() % warp != 0)
    out.push_back({"block", std::to_string(launch.block->count()) + " threads is not a multiple of the warp size (" +
                                std::to_string(warp) + "): the last warp of every block runs partly empty"});
  return out;
}

}  // namespace launchlab
