#pragma once
// The course file's "predict" field (docs/COURSE_FORMAT.md), read by course_file.cpp: private to course/.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "launchlab/course/prediction.h"
#include "launchlab/engine/request.h"

namespace launchlab::course {

/// A field of "predict" that is wrong: its path (after the experiment's) and what is wrong with it.
struct PredictionFieldError {
  std::string field;
  std::string what;
};

/// The experiment's predictions (its "predict": one object or a list), each checked: the measure's name and
/// arguments, the answer's kind against the measure's, and implementation ids against `request.impls` when it names
/// them. Throws PredictionFieldError, the field named from `at` ("experiments[3]."). None: an empty list.
std::vector<Prediction> predictionsOf(const nlohmann::json& experiment, const std::string& at,
                                      const RequestText& request);

}  // namespace launchlab::course
