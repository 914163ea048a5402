#include "models/presets.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>
#include <charconv>

#include "launchlab/engine/counters.h"
#include "launchlab/engine/dtype.h"
#include "launchlab/engine/request.h"
#include "launchlab/files/bounded_file.h"

namespace launchlab::ui {

namespace {
bool fail(QString* error, const QString& msg) {
  if (error) *error = msg;
  return false;
}
}  // namespace

QJsonObject formToJson(const FormState& f) {
  QJsonObject params;
  for (const auto& [k, v] : f.params) params[QString::fromStdString(k)] = QString::fromStdString(v);
  QJsonArray impls;
  for (const auto& i : f.impls) impls.append(QString::fromStdString(i));
  QJsonObject o;
  o["workload"] = QString::fromStdString(f.workload);
  o["size"] = QString::fromStdString(f.size);
  o["dtype"] = QString::fromStdString(f.dtype);
  o["params"] = params;
  o["auto_block"] = f.autoBlock;
  o["block"] = QString::fromStdString(f.block);
  o["auto_grid"] = f.autoGrid;
  o["grid"] = QString::fromStdString(f.grid);
  o["impls"] = impls;
  o["reps"] = f.reps;
  o["warmup"] = f.warmup;
  o["seed"] = QString::number(f.seed);  // as text: JSON numbers lose 64-bit integers
  if (!f.counters.empty()) {
    QJsonArray counters;
    for (const auto& c : f.counters) counters.append(QString::fromStdString(c));
    o["counters"] = counters;
  }
  return o;
}

std::optional<FormState> formFromJson(const QJsonObject& o, QString* error) {
  FormState f;
  QString bad;
  auto str = [&](const char* key, std::string& out) {
    if (!o.contains(key)) return;
    if (!o[key].isString())
      bad = QString("'%1' must be a string").arg(key);
    else
      out = o[key].toString().toStdString();
  };
  auto boolean = [&](const char* key, bool& out) {
    if (!o.contains(key)) return;
    if (!o[key].isBool())
      bad = QString("'%1' must be true or false").arg(key);
    else
      out = o[key].toBool();
  };
  auto integer = [&](const char* key, int& out) {
    if (!o.contains(key)) return;
    if (!o[key].isDouble())
      bad = QString("'%1' must be a number").arg(key);
    else
      out = o[key].toInt();
  };
  str("workload", f.workload);
  str("size", f.size);
  str("dtype", f.dtype);
  if (!f.dtype.empty() && !parseDType(f.dtype)) bad = QString::fromStdString(unknownDTypeMessage(f.dtype));
  boolean("auto_block", f.autoBlock);
  str("block", f.block);
  boolean("auto_grid", f.autoGrid);
  str("grid", f.grid);
  integer("reps", f.reps);
  integer("warmup", f.warmup);
  if (o.contains("seed")) {
    bool ok = false;
    const auto s = o["seed"].isString() ? o["seed"].toString().toULongLong(&ok) : 0;
    if (!ok)
      bad = "'seed' must be a whole number as text";
    else
      f.seed = s;
  }
  if (o.contains("params")) {
    if (!o["params"].isObject()) bad = "'params' must be an object";
    const auto p = o["params"].toObject();
    for (auto it = p.begin(); it != p.end(); ++it) {
      if (!it.value().isString())
        bad = QString("parameter '%1' must be given as text").arg(it.key());
      else
        f.params[it.key().toStdString()] = it.value().toString().toStdString();
    }
  }
  if (o.contains("impls")) {
    if (!o["impls"].isArray()) bad = "'impls' must be a list";
    for (const auto& v : o["impls"].toArray()) {
      if (!v.isString())
        bad = "'impls' must list implementation ids";
      else
        f.impls.push_back(v.toString().toStdString());
    }
  }
  if (o.contains("counters")) {
    if (!o["counters"].isArray()) bad = "'counters' must be a list";
    for (const auto& v : o["counters"].toArray()) {
      if (!v.isString() || !findCounter(v.toString().toStdString()))
        bad = "'counters' must list counter ids (launchlab-cli profile --help)";
      else
        f.counters.push_back(v.toString().toStdString());
    }
  }
  if (f.workload.empty() && bad.isEmpty()) bad = "'workload' is missing";
  if (!bad.isEmpty()) {
    fail(error, bad);
    return std::nullopt;
  }
  return f;
}

QByteArray presetToJson(const Preset& p) {
  QJsonObject o;
  o["launchlab_preset"] = 1;
  o["name"] = p.name;
  if (!p.courseId.isEmpty()) o["course_id"] = p.courseId;
  o["form"] = formToJson(p.form);
  return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

std::optional<Preset> presetFromJson(const QByteArray& bytes, QString* error) {
  QJsonParseError pe;
  const auto doc = QJsonDocument::fromJson(bytes, &pe);
  if (doc.isNull()) {
    fail(error, "not JSON: " + pe.errorString() + " at offset " + QString::number(pe.offset));
    return std::nullopt;
  }
  const auto o = doc.object();
  if (!doc.isObject() || o["launchlab_preset"].toInt() != 1 || !o["form"].isObject()) {
    fail(error, "not a LaunchLab preset (expected {\"launchlab_preset\": 1, \"name\": …, \"form\": {…}})");
    return std::nullopt;
  }
  const QString name = o["name"].toString();
  if (name.size() > kMaxPresetNameChars) {  // it becomes a menu entry
    fail(error, "the preset's name is longer than " + QString::number(kMaxPresetNameChars) + " characters");
    return std::nullopt;
  }
  QString formError;
  auto form = formFromJson(o["form"].toObject(), &formError);
  if (!form) {
    fail(error, "bad preset: " + formError);
    return std::nullopt;
  }
  return Preset{name, *form, o["course_id"].toString()};
}

bool savePresetFile(const QString& path, const Preset& p, QString* error) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return fail(error, "cannot write " + path + ": " + f.errorString());
  const QByteArray bytes = presetToJson(p);
  if (f.write(bytes) != bytes.size()) {
    const QString why = f.errorString();
    f.cancelWriting();
    return fail(error, "cannot write " + path + ": " + why);
  }
  if (!f.commit()) return fail(error, "cannot write " + path + ": " + f.errorString());
  return true;
}

std::optional<Preset> loadPresetFile(const QString& path, QString* error) {
  QByteArray bytes;
  if (path.startsWith(':')) {  // compiled in (Qt resources)
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
      fail(error, "cannot read " + path + ": " + f.errorString());
      return std::nullopt;
    }
    bytes = f.readAll();
  } else {  // the user's folder or an import: a pipe or a device is refused unread, and the size is capped
    const files::FileBytes read = files::readBoundedFile(path.toStdString(), files::kMaxPresetFileBytes);
    if (!read.ok()) {
      fail(error, "cannot read " + QString::fromStdString(read.error));
      return std::nullopt;
    }
    bytes = QByteArray::fromStdString(read.bytes);
  }
  QString why;
  auto p = presetFromJson(bytes, &why);
  if (!p) fail(error, path + ": " + why);
  return p;
}

namespace {
/// A whole number the course file gave as text ("5"), or nullopt.
template <class T>
std::optional<T> wholeNumber(const std::string& text) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() ? std::optional<T>(v) : std::nullopt;
}
}  // namespace

std::optional<FormState> courseForm(const CourseExperiment& e, const Workload& w, QString* error) {
  const RequestText& t = e.request;
  const auto reps = wholeNumber<int>(t.reps), warmup = wholeNumber<int>(t.warmup);
  const auto seed = wholeNumber<std::uint64_t>(t.seed);
  if (!reps || !warmup || !seed) {
    fail(error,
         QString::fromStdString("course experiment '" + e.id + "': request.reps, warmup and seed must be " +
                                "whole numbers (they are '" + t.reps + "', '" + t.warmup + "', '" + t.seed + "')"));
    return std::nullopt;
  }
  FormState f = defaultForm(w);
  f.size = t.n;
  f.dtype = t.dtype;
  for (const auto& [k, v] : t.params) f.params[k] = v;
  f.autoBlock = t.block == "auto";
  if (!f.autoBlock) f.block = t.block;
  f.autoGrid = t.grid == "auto";
  if (!f.autoGrid) f.grid = t.grid;
  f.impls.clear();
  if (t.impls == "all")
    for (const auto& i : w.impls()) f.impls.push_back(i.id);
  else
    f.impls = splitList(t.impls);
  f.reps = *reps;
  f.warmup = *warmup;
  f.seed = *seed;
  f.counters = e.counters;
  return f;
}

std::optional<Preset> coursePreset(std::string_view id, const Registry& registry, QString* error) {
  const CourseExperiment* e = findCourseExperiment(id);
  if (!e) {
    fail(error, QString::fromStdString(unknownCourseMessage(id)));
    return std::nullopt;
  }
  const Workload* w = registry.find(e->request.workload);
  if (!w) {
    fail(error, QString::fromStdString("course experiment '" + e->id + "' needs workload '" + e->request.workload +
                                       "', which this build lacks"));
    return std::nullopt;
  }
  auto form = courseForm(*e, *w, error);
  if (!form) return std::nullopt;
  return Preset{QString::fromStdString(e->title), std::move(*form), QString::fromStdString(e->id)};
}

PresetStore::PresetStore(QString folder) : m_folder(std::move(folder)) {}

QString PresetStore::defaultFolder() {
  return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + "/presets";
}

QString PresetStore::fileNameFor(const QString& name) {
  QString s;
  for (QChar c : name)
    s += (c.isLetterOrNumber() || c == '-' || c == '_' || c == '.') && c.unicode() < 128 ? c : QChar('_');
  if (s.isEmpty() || s.startsWith('.')) s.prepend("preset");
  return s + ".json";
}

QStringList PresetStore::names() const {
  QStringList user;
  for (const auto& fi : QDir(m_folder).entryInfoList({"*.json"}, QDir::Files, QDir::Name))
    if (auto p = loadPresetFile(fi.absoluteFilePath())) user << p->name;
  user.sort(Qt::CaseInsensitive);
  return user;
}

namespace {
/// The name inside a preset file, or "" when it does not read.
QString presetNameIn(const QString& path) {
  auto p = loadPresetFile(path);
  return p ? p->name : QString();
}
}  // namespace

QString PresetStore::fileOf(const QString& name) const {
  const QString own = m_folder + "/" + fileNameFor(name);
  if (presetNameIn(own) == name) return own;
  for (const auto& fi : QDir(m_folder).entryInfoList({"*.json"}, QDir::Files, QDir::Name))
    if (presetNameIn(fi.absoluteFilePath()) == name) return fi.absoluteFilePath();
  return {};
}

QString PresetStore::fileToSave(const QString& name) const {
  if (QString own = fileOf(name); !own.isEmpty()) return own;
  const QString file = fileNameFor(name), stem = file.chopped(5);  // ".json"
  QString path = m_folder + "/" + file;
  for (int k = 2; QFile::exists(path); ++k) path = m_folder + "/" + stem + "-" + QString::number(k) + ".json";
  return path;
}

bool PresetStore::save(const Preset& p, QString* error) const {
  if (p.name.trimmed().isEmpty()) return fail(error, "a preset needs a name");
  if (p.name.size() > kMaxPresetNameChars)
    return fail(error, "a preset's name has at most " + QString::number(kMaxPresetNameChars) + " characters");
  if (!QDir().mkpath(m_folder)) return fail(error, "cannot create " + m_folder);
  return savePresetFile(fileToSave(p.name), p, error);
}

std::optional<Preset> PresetStore::load(const QString& name, QString* error) const {
  const QString path = fileOf(name);
  if (path.isEmpty()) {
    fail(error, "no preset named '" + name + "' in " + m_folder);
    return std::nullopt;
  }
  return loadPresetFile(path, error);
}

bool PresetStore::remove(const QString& name) const {
  const QString path = fileOf(name);
  return !path.isEmpty() && QFile::remove(path);
}

bool PresetStore::rename(const QString& from, const QString& to, QString* error) const {
  const QString name = to.trimmed();
  auto p = load(from, error);
  if (!p) return false;
  if (name == from) return true;
  if (!fileOf(name).isEmpty()) return fail(error, "a preset named '" + name + "' already exists");
  const QString old = fileOf(from);
  p->name = name;
  if (!save(*p, error)) return false;
  QFile::remove(old);
  return true;
}

}  // namespace launchlab::ui
