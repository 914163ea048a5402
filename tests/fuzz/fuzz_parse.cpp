// The parsers of user-typed text (parse.h, launch_config.h, request.h): sizes, launch shapes, numbers, lists and a
// whole request typed field by field. None may crash; a parsed launch shape reads back from its own text.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "launchlab/engine/launch_config.h"
#include "launchlab/engine/request.h"
#include "launchlab/files/parse.h"

using namespace launchlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (auto n = parseSize(text, &error)) formatSize(*n);
  parseDouble(text);
  parseInteger(text);
  splitList(text);
  if (auto d = parseDim3(text, &error)) {
    if (parseDim3(formatDim3(*d)) != d) std::abort();
  }
  parseLaunchDim3(text, LaunchPart::Block, &error);
  parseLaunchDim3(text, LaunchPart::Grid, &error);
  // The same text in every field of a request, and each field in turn set by name as a sweep does.
  RequestText t;
  t.workload = t.n = t.dtype = t.block = t.grid = t.impls = t.reps = t.warmup = t.seed = text;
  t.params["p"] = text;
  const ParsedRequest parsed = parseRequest(t);
  if (parsed.ok()) parseRequest(requestText(parsed.request));
  for (const char* field : {"n", "dtype", "block", "grid", "impl", "reps", "warmup", "seed", "param:p"}) {
    RequestText one;
    if (setRequestField(one, field, text)) parseRequest(one);
  }
  return 0;
}
