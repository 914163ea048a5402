#include "window/prediction_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <algorithm>
#include <stdexcept>

#include "launchlab/files/atomic_file.h"
#include "launchlab/files/csv.h"

namespace launchlab::ui {

namespace {
// The fields as the file names them, in the CSV's order after the experiment.
QJsonObject toJson(const PredictionRecord& r) {
  return {{"experiment", r.experiment}, {"chapter", r.chapter},   {"question", r.question},
          {"prediction", r.guess},      {"measured", r.measured}, {"score", r.score},
          {"comparable", r.comparable}, {"within_2x", r.close},   {"time", r.at}};
}

PredictionRecord fromJson(const QJsonObject& o) {
  PredictionRecord r;
  r.experiment = o["experiment"].toString();
  r.chapter = o["chapter"].toString();
  r.question = o["question"].toString();
  r.guess = o["prediction"].toString();
  r.measured = o["measured"].toString();
  r.score = o["score"].toString();
  r.comparable = o["comparable"].toBool();
  r.close = o["within_2x"].toBool();
  r.at = o["time"].toString();
  return r;
}

// The most a predictions file may hold: 60 experiments' records are a few tens of KiB.
constexpr qint64 kMaxFileBytes = 4 << 20;
}  // namespace

PredictionStore::PredictionStore(QString path) : m_path(std::move(path)) {}

QString PredictionStore::defaultPath() {
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  return dir.isEmpty() ? QString() : dir + "/predictions.json";
}

QString PredictionStore::load() {
  m_records.clear();
  if (m_path.isEmpty()) return {};
  QFile f(m_path);
  if (!f.exists()) return {};
  if (f.size() > kMaxFileBytes) return m_path + ": larger than 4 MiB, not read";
  if (!f.open(QIODevice::ReadOnly)) return m_path + ": " + f.errorString();
  QJsonParseError err;
  const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
  if (err.error != QJsonParseError::NoError || !doc.isObject())
    return m_path + ": not a predictions file (" + err.errorString() + ")";
  for (const QJsonValue& v : doc.object()["predictions"].toArray())
    if (v.isObject() && !v.toObject()["experiment"].toString().isEmpty()) m_records.push_back(fromJson(v.toObject()));
  return {};
}

QString PredictionStore::record(const PredictionRecord& r) {
  auto it = std::find_if(m_records.begin(), m_records.end(),
                         [&](const PredictionRecord& x) { return x.experiment == r.experiment; });
  if (it != m_records.end())
    *it = r;
  else
    m_records.push_back(r);
  if (m_path.isEmpty()) return {};
  QJsonArray list;
  for (const auto& x : m_records) list.append(toJson(x));
  const QByteArray bytes = QJsonDocument(QJsonObject{{"version", 1}, {"predictions", list}}).toJson();
  try {
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    files::writeAtomic(m_path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

PredictionSummary PredictionStore::summary() const {
  PredictionSummary s;
  for (const auto& r : m_records) {
    ++s.answered;
    s.comparable += r.comparable;
    s.close += r.close;
    auto& c = s.byChapter[r.chapter];
    ++c.answered;
    c.close += r.close;
  }
  return s;
}

QString PredictionStore::summaryText() const {
  const PredictionSummary s = summary();
  if (s.answered == 0) return "No predictions yet: open a course experiment, answer its question, then run it.";
  QString out = QString("%1 answered \u00B7 %2 within 2\u00D7 or right (of %3 measured)")
                    .arg(s.answered)
                    .arg(s.close)
                    .arg(s.comparable);
  for (const auto& [chapter, c] : s.byChapter)
    out += QString("\n%1: %2 answered, %3 within 2\u00D7")
               .arg(chapter.isEmpty() ? QString("(no chapter)") : chapter)
               .arg(c.answered)
               .arg(c.close);
  return out;
}

QByteArray PredictionStore::csv() const {
  auto f = [](const QString& s) { return QString::fromStdString(csv::field(s.toStdString())); };
  QString out = "experiment,chapter,question,prediction,measured,score,within_2x,time\n";
  for (const auto& r : m_records)
    out += QStringList{f(r.experiment),
                       f(r.chapter),
                       f(r.question),
                       f(r.guess),
                       f(r.measured),
                       f(r.score),
                       r.comparable ? (r.close ? "yes" : "no") : "",
                       f(r.at)}
               .join(',') +
           '\n';
  return out.toUtf8();
}

}  // namespace launchlab::ui
