#include "launchlab/files/command_line.h"

namespace launchlab {

std::string shellQuote(std::string_view word) {
  auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_./:=,+@%^-").find(c) != std::string_view::npos;
  };
  bool bare = !word.empty();
  for (char c : word) bare = bare && plain(c);
  if (bare) return std::string(word);
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<std::string> runCommandArgs(const RunRequest& req) {
  const RequestText t = requestText(req);
  std::vector<std::string> a = {"run", t.workload};
  auto opt = [&a](const char* name, const std::string& value) {
    a.push_back(name);
    a.push_back(value);
  };
  if (!t.n.empty()) opt("--n", t.n);
  if (!t.dtype.empty()) opt("--dtype", t.dtype);
  if (t.block != "auto") opt("--block", t.block);
  if (t.grid != "auto") opt("--grid", t.grid);
  if (t.impls != "all") opt("--impl", t.impls);
  opt("--reps", t.reps);
  opt("--warmup", t.warmup);
  opt("--seed", t.seed);
  for (const auto& [k, v] : t.params) opt("--param", k + "=" + v);
  for (const auto& [k, v] : t.inputFiles) opt("--input", k + "=" + v);
  if (!t.device.empty()) opt("--device", t.device);
  if (req.traceBlocks) a.push_back("--trace-blocks");
  return a;
}

std::string runCommandLine(const RunRequest& req) {
  std::string line = "launchlab-cli";
  for (const auto& w : runCommandArgs(req)) line += " " + shellQuote(w);
  return line;
}

}  // namespace launchlab
