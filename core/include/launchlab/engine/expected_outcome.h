#pragma once
/// An expected outcome as its lesson reads, for the window's amber banner and the CLI's notes alike.
#include <string>

#include "launchlab/engine/result.h"
#include "launchlab/engine/workload.h"

namespace launchlab {

/// The lesson of a result that showsLesson(): its verification's note without the kExpectedOutcome mark ("lost
/// 99.2 % of the increments (4063 of 4096) — the race this experiment demonstrates"), or the note as it is.
inline std::string lessonSentence(const ImplResult& i) {
  const std::string& note = i.verification.note;
  return note.starts_with(kExpectedOutcome) ? note.substr(kExpectedOutcome.size()) : note;
}

/// The note was written by declareExpectedOutcome: the whole lesson, its count included.
inline bool declaredLesson(const ImplResult& i) { return i.verification.note.starts_with(kExpectedOutcome); }

}  // namespace launchlab
