#pragma once
// The course's exercise with an id, for the suites that compile kernels against its contract.
#include <gtest/gtest.h>

#include "launchlab/course/exercise.h"

namespace launchlab::test {

/// The exercise `id`; a test that names one the course does not have fails here, before it dereferences null.
inline const Exercise& ex(const char* id) {
  const Exercise* e = findExercise(id);
  EXPECT_NE(e, nullptr) << id;
  return *e;
}

}  // namespace launchlab::test
