#pragma once
// The measure vocabulary's arguments, shared by the course file's reader and the measures: private to course/.
#include <span>
#include <string_view>

namespace launchlab::course {

/// A measure's name and the "predict" keys it takes beside question, answer, label and explain.
struct MeasureArgs {
  std::string_view name;
  std::span<const std::string_view> required;
  std::span<const std::string_view> optional;
  bool choice = false;  ///< answers with one of a few values, not a number
};

/// Every measure, in the documented order.
std::span<const MeasureArgs> measureTable();
/// The measure named `name`, or nullptr.
const MeasureArgs* measureArgs(std::string_view name);

}  // namespace launchlab::course
