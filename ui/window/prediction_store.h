#pragma once
/// A student's predictions, kept between sessions: one record per course experiment (a new answer replaces the old),
/// written atomically as JSON under the application's data folder, with the "My predictions" summary (answered,
/// within 2×, by chapter) and a CSV export. QtCore only; no widgets.
#include <QByteArray>
#include <QString>
#include <map>
#include <vector>

namespace launchlab::ui {

struct PredictionRecord {
  QString experiment;  ///< the course experiment's id
  QString chapter;
  QString question;
  QString guess;     ///< the prediction as the stage prints it ("4×", "CUDA strided")
  QString measured;  ///< the measured answer as the stage prints it; "" when the run gave none
  QString score;     ///< core's scoreGuess text: "3.1× too low", "right", …
  bool comparable = false;
  bool close = false;  ///< within 2× (or right)
  QString at;          ///< ISO 8601, UTC
  bool operator==(const PredictionRecord&) const = default;
};

struct PredictionSummary {
  int answered = 0, comparable = 0, close = 0;
  struct Chapter {
    int answered = 0, close = 0;
  };
  std::map<QString, Chapter> byChapter;
};

class PredictionStore {
 public:
  /// `path` "": kept in memory only (tests, a machine without a data folder).
  explicit PredictionStore(QString path = {});
  /// AppDataLocation/predictions.json; "" when there is no writable data folder.
  static QString defaultPath();

  /// Reads the file (a missing file is an empty store); "" or why not (the records are then empty).
  QString load();
  /// Adds or replaces the experiment's record and writes the file; "" or why not (the record is kept in memory).
  QString record(const PredictionRecord& r);
  const std::vector<PredictionRecord>& records() const { return m_records; }
  QString path() const { return m_path; }

  PredictionSummary summary() const;
  /// "12 answered · 7 within 2× (of 11 measured)" and a line per chapter.
  QString summaryText() const;
  /// experiment,chapter,question,prediction,measured,score,within_2x,time; one row per record.
  QByteArray csv() const;

 private:
  QString m_path;
  std::vector<PredictionRecord> m_records;
};

}  // namespace launchlab::ui
