#include "launchlab/engine/params.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "launchlab/files/parse.h"

namespace launchlab {

double ParamValues::number(const std::string& name) const {
  auto it = m_numbers.find(name);
  if (it == m_numbers.end()) throw std::out_of_range("no numeric parameter '" + name + "'");
  return it->second;
}

long long ParamValues::integer(const std::string& name) const { return std::llround(number(name)); }

const std::string& ParamValues::choice(const std::string& name) const {
  auto it = m_choices.find(name);
  if (it == m_choices.end()) throw std::out_of_range("no choice parameter '" + name + "'");
  return it->second;
}

bool ParamValues::has(const std::string& name) const { return m_numbers.count(name) || m_choices.count(name); }

namespace {
std::string fmt(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}
}  // namespace

std::string checkParamValue(const ParamSpec& spec, const std::string& text) {
  if (spec.kind == ParamSpec::Kind::Choice) {
    for (const auto& c : spec.choices)
      if (c == text) return {};
    std::string list;
    for (const auto& c : spec.choices) list += (list.empty() ? "" : ", ") + c;
    return spec.name + " must be one of: " + list + " (got '" + text + "')";
  }
  std::optional<double> v;
  if (spec.kind == ParamSpec::Kind::Integer) {
    auto i = parseInteger(text);
    if (!i) return spec.name + " must be a whole number (got '" + text + "')";
    v = static_cast<double>(*i);
  } else {
    v = parseDouble(text);
    if (!v) return spec.name + " must be a number (got '" + text + "')";
  }
  if (*v < spec.minValue || *v > spec.maxValue)
    return spec.name + " = " + text + " is out of range [" + fmt(spec.minValue) + ", " + fmt(spec.maxValue) + "]" +
           (spec.unit.empty() ? "" : " " + spec.unit);
  return {};
}

std::map<std::string, std::string> paramProblems(const std::vector<ParamSpec>& specs,
                                                 const std::map<std::string, std::string>& given) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : given) {
    auto spec = std::find_if(specs.begin(), specs.end(), [&name = name](const ParamSpec& s) { return s.name == name; });
    if (spec != specs.end()) {
      if (auto e = checkParamValue(*spec, value); !e.empty()) out[name] = e;
      continue;
    }
    std::string list;
    for (const auto& s : specs) list += (list.empty() ? "" : ", ") + s.name;
    out[name] =
        "unknown parameter '" + name + "'" + (list.empty() ? " (this workload has none)" : " (known: " + list + ")");
  }
  return out;
}

std::optional<ParamValues> resolveParams(const std::vector<ParamSpec>& specs,
                                         const std::map<std::string, std::string>& given, std::string& error) {
  if (auto problems = paramProblems(specs, given); !problems.empty()) {
    error = problems.begin()->second;
    return std::nullopt;
  }
  ParamValues out;
  for (const auto& s : specs) {
    auto it = given.find(s.name);
    if (it == given.end()) {
      if (s.kind == ParamSpec::Kind::Choice)
        out.setChoice(s.name, s.choices.at(static_cast<std::size_t>(s.defaultValue)));
      else
        out.setNumber(s.name, s.defaultValue);
      continue;
    }
    if (s.kind == ParamSpec::Kind::Choice)
      out.setChoice(s.name, it->second);
    else
      out.setNumber(s.name, *parseDouble(it->second));
  }
  return out;
}

}  // namespace launchlab
