#pragma once
// For a test that loads a course folder (useCourseDir): puts the built-in course back when it ends.
#include "helpers/test_files.h"
#include "launchlab/course/course.h"

namespace launchlab::test {

struct RestoreCourse {
  ~RestoreCourse() { useCourseDir(freshFolder("restore_course_empty").string(), false); }
};

}  // namespace launchlab::test
