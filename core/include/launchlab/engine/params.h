#pragma once
/// Workload parameters: their specification (from workload metadata) and their values for one run.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace launchlab {

/// One parameter of a workload. An aggregate, written with designated initialisers (fields in this order):
///   {.name = "bins", .label = "Bins", .unit = "bins", .help = "…", .kind = ParamSpec::Kind::Integer,
///    .defaultValue = 10, .minValue = 1, .maxValue = 65536, .logScale = true}
struct ParamSpec {
  enum class Kind { Real, Integer, Choice };
  std::string name;   ///< identifier used on the CLI (--param name=value) and in JSON
  std::string label;  ///< human label for the GUI
  std::string unit;   ///< e.g. "ms", "bins", "" when dimensionless
  std::string help;   ///< one sentence, shown as a tooltip
  Kind kind = Kind::Real;
  double defaultValue = 0;
  double minValue = -1e300;  ///< Real and Integer: the accepted range (Choice ignores both)
  double maxValue = 1e300;
  std::vector<std::string> choices;  ///< for Kind::Choice; defaultValue is the index of the default
  bool logScale = false;             ///< GUI hint
};

/// Resolved parameter values: every spec'd parameter has a value (defaults filled in).
class ParamValues {
 public:
  double number(const std::string& name) const;              ///< Real/Integer value; throws std::out_of_range
  long long integer(const std::string& name) const;          ///< Integer value
  const std::string& choice(const std::string& name) const;  ///< Choice value (its text)
  bool has(const std::string& name) const;
  void setNumber(const std::string& name, double v) { m_numbers[name] = v; }
  void setChoice(const std::string& name, std::string v) { m_choices[name] = std::move(v); }
  const std::map<std::string, double>& numbers() const { return m_numbers; }
  const std::map<std::string, std::string>& choices() const { return m_choices; }

 private:
  std::map<std::string, double> m_numbers;
  std::map<std::string, std::string> m_choices;
};

/// Resolves user-given text values against specs: fills defaults, parses, range-checks.
/// On error returns nullopt and sets `error` to one line naming the parameter and the problem.
std::optional<ParamValues> resolveParams(const std::vector<ParamSpec>& specs,
                                         const std::map<std::string, std::string>& given, std::string& error);

/// Checks a single value; returns an error message or "" when valid.
std::string checkParamValue(const ParamSpec& spec, const std::string& text);
/// Every problem of the given values, by parameter name: unknown names and values checkParamValue rejects.
std::map<std::string, std::string> paramProblems(const std::vector<ParamSpec>& specs,
                                                 const std::map<std::string, std::string>& given);

}  // namespace launchlab
