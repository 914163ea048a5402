// The build's record of every kernel's resource usage: cuobjdump's report parsed, names demangled and split into
// workload namespace / function / template arguments, the JSON document, and selection by implementation.
#include "launchlab/explorer/kernel_resources.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "launchlab/files/json_value.h"
#include "launchlab/files/parse.h"

namespace launchlab {

namespace {

using nlohmann::ordered_json;
constexpr std::string_view kSchema = "launchlab.kernel_resources";
constexpr std::string_view kPrefix = "launchlab::kernels::";

void eraseAll(std::string& s, std::string_view what) {
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at)) s.erase(at, what.size());
}

/// "REG:8 STACK:0 SHARED:2048 LOCAL:0 CONSTANT[0]:376 …" into the resources.
KernelResources resourcesOf(std::string_view line) {
  KernelResources r;
  std::istringstream in{std::string(line)};
  std::string item;
  std::size_t stack = 0, local = 0;
  while (in >> item) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = item.substr(0, colon);
    const long long v = std::atoll(item.c_str() + colon + 1);
    if (key == "REG")
      r.registersPerThread = int(v);
    else if (key == "SHARED")
      r.staticSharedBytes = std::size_t(v);
    else if (key == "STACK")
      stack = std::size_t(v);
    else if (key == "LOCAL")
      local = std::size_t(v);
  }
  r.localBytesPerThread = stack + local;
  return r;
}

ordered_json recordJson(const KernelRecord& k) {
  return {{"arch", k.arch},
          {"symbol", k.symbol},
          {"name", k.name},
          {"namespace", k.workloadNamespace},
          {"function", k.function},
          {"template_args", k.templateArgs},
          {"registers", k.resources.registersPerThread},
          {"static_shared_bytes", k.resources.staticSharedBytes},
          {"local_bytes", k.resources.localBytesPerThread}};
}

KernelRecord recordOf(const ordered_json& j) {
  KernelRecord k;
  k.arch = j.at("arch").get<std::string>();
  k.symbol = j.at("symbol").get<std::string>();
  k.name = j.at("name").get<std::string>();
  k.workloadNamespace = j.at("namespace").get<std::string>();
  k.function = j.at("function").get<std::string>();
  k.templateArgs = j.at("template_args").get<std::string>();
  k.resources.registersPerThread = j.at("registers").get<int>();
  k.resources.staticSharedBytes = j.at("static_shared_bytes").get<std::size_t>();
  k.resources.localBytesPerThread = j.at("local_bytes").get<std::size_t>();
  return k;
}

/// The position of the first '(' at angle-bracket depth 0 (the parameter list), or npos.
std::size_t parameterList(const std::string& s) {
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<')
      ++depth;
    else if (s[i] == '>')
      --depth;
    else if (s[i] == '(' && depth == 0)
      return i;
  }
  return std::string::npos;
}

}  // namespace

std::string demangle(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : symbol;
}

std::string KernelRecord::displayName() const {
  std::string args = templateArgs;
  bool traced = false;
  for (const auto& [tag, isTraced] :
       {std::pair{", launchlab::gpu::BlockTraceOff", false}, {", launchlab::gpu::BlockTraceOn", true}})
    if (const auto at = args.find(tag); at != std::string::npos) {
      args.erase(at, std::string_view(tag).size());
      traced = isTraced;
    }
  return qualified() + (args.empty() ? "" : "<" + args + ">") + (traced ? " (traced)" : "");
}

void splitKernelName(const std::string& demangled, KernelRecord& k) {
  std::string s = demangled;
  eraseAll(s, "(anonymous namespace)::");
  if (s.rfind("void ", 0) == 0) s.erase(0, 5);  // function templates mangle their return type
  if (const auto p = parameterList(s); p != std::string::npos) s.erase(p);
  k.name = s;
  std::string base = s;
  k.templateArgs.clear();
  if (!base.empty() && base.back() == '>') {
    int depth = 0;
    for (std::size_t i = base.size(); i-- > 0;) {
      if (base[i] == '>')
        ++depth;
      else if (base[i] == '<' && --depth == 0) {
        k.templateArgs = base.substr(i + 1, base.size() - i - 2);
        base.erase(i);
        break;
      }
    }
  }
  const auto lastColons = base.rfind("::");
  k.function = lastColons == std::string::npos ? base : base.substr(lastColons + 2);
  k.workloadNamespace.clear();
  if (base.rfind(kPrefix, 0) == 0 && lastColons >= kPrefix.size()) {
    const std::string rest = base.substr(kPrefix.size());
    k.workloadNamespace = rest.substr(0, rest.find("::"));
  }
}

std::vector<KernelRecord> parseResourceUsage(std::string_view text) {
  std::vector<KernelRecord> out;
  std::set<std::pair<std::string, std::string>> seen;
  std::string arch, pending;
  std::istringstream in{std::string(text)};
  for (std::string raw; std::getline(in, raw);) {
    const std::string line(trim(raw));
    if (line.rfind("arch = ", 0) == 0)
      arch = line.substr(7);
    else if (line.rfind("Function ", 0) == 0 && line.back() == ':')
      pending = line.substr(9, line.size() - 10);
    else if (!pending.empty() && line.rfind("REG:", 0) == 0) {
      KernelRecord k;
      k.arch = arch;
      k.symbol = std::exchange(pending, {});
      k.resources = resourcesOf(line);
      splitKernelName(demangle(k.symbol), k);
      if (seen.insert({k.arch, k.symbol}).second) out.push_back(std::move(k));
    }
  }
  std::sort(out.begin(), out.end(), [](const KernelRecord& a, const KernelRecord& b) {
    return std::tie(a.arch, a.name, a.symbol) < std::tie(b.arch, b.name, b.symbol);
  });
  return out;
}

std::string kernelRecordsJson(const std::vector<KernelRecord>& records, const std::string& source) {
  ordered_json root = jsonDocument(kSchema);
  root["source"] = source;
  root["archs"] = recordedArchs(records);
  // One line per field of the document and per kernel: a diff of the committed copy shows which kernels changed.
  std::string out = "{\n";
  for (const auto& [key, value] : root.items()) out += " " + ordered_json(key).dump() + ": " + dumpJson(value) + ",\n";
  out += " \"kernels\": [";
  for (std::size_t i = 0; i < records.size(); ++i) out += (i ? ",\n  " : "\n  ") + dumpJson(recordJson(records[i]));
  return out + "\n ]\n}";
}

std::optional<std::vector<KernelRecord>> kernelRecordsFromJson(std::string_view text, std::string* error) {
  try {
    const ordered_json root = ordered_json::parse(text);
    if (root.value("schema", "") != kSchema) throw std::runtime_error("not a " + std::string(kSchema) + " document");
    std::vector<KernelRecord> out;
    for (const auto& j : root.at("kernels")) out.push_back(recordOf(j));
    return out;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
}

std::string_view kernelTypeName(DType t) {
  switch (t) {
    case DType::F32:
      return "float";
    case DType::F64:
      return "double";
    case DType::I16:
      return "short";
    case DType::I32:
      return "int";
    case DType::I64:
      return "long";
    case DType::U32:
      return "unsigned int";
    case DType::U8:
      return "unsigned char";
  }
  return "";
}

std::vector<KernelRecord> selectKernels(const std::vector<KernelRecord>& all, const std::string& arch,
                                        const std::string& workloadNamespace,
                                        const std::vector<std::string>& qualifiedNames, std::optional<DType> dtype) {
  std::vector<KernelRecord> v;
  for (const auto& k : all) {
    // The instrumented instantiations (blocks on SMs, kernels/common/block_trace.cuh) run only when asked for.
    if (k.arch != arch || k.templateArgs.find("BlockTraceOn") != std::string::npos) continue;
    const bool named = std::find(qualifiedNames.begin(), qualifiedNames.end(), k.qualified()) != qualifiedNames.end();
    if (qualifiedNames.empty() ? k.workloadNamespace == workloadNamespace : named) v.push_back(k);
  }
  if (dtype) {
    const std::string t(kernelTypeName(*dtype));
    auto other = [&](const KernelRecord& k) {
      const std::string first = k.templateArgs.substr(0, k.templateArgs.find(','));
      return !k.templateArgs.empty() && first != t;
    };
    // Keep the dtype's instantiations, unless none of the templates is instantiated for it.
    const bool any =
        std::any_of(v.begin(), v.end(), [&](const KernelRecord& k) { return !k.templateArgs.empty() && !other(k); });
    if (any) v.erase(std::remove_if(v.begin(), v.end(), other), v.end());
  }
  return v;
}

std::vector<std::string> recordedArchs(const std::vector<KernelRecord>& all) {
  std::set<std::string> s;
  for (const auto& k : all) s.insert(k.arch);
  return {s.begin(), s.end()};
}

}  // namespace launchlab
