// Presets and settings round trips: FormState <-> JSON, preset files, the preset folder, a course experiment's
// form built from the course data, and last-used parameters in the settings.
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "launchlab/engine/request.h"
#include "launchlab/files/bounded_file.h"
#include "launchlab/kernels.h"
#include "models/backend.h"
#include "models/presets.h"
#include "models/settings.h"

using namespace launchlab;
using namespace launchlab::ui;

namespace {
FormState sample() {
  FormState f;
  f.workload = "gaussian_pdf";
  f.size = "2^22";
  f.dtype = "f64";
  f.params = {{"mean", "0.5"}, {"sigma", "bad value kept as typed"}};
  f.autoBlock = false;
  f.block = "1025";
  f.autoGrid = false;
  f.grid = "30";
  f.impls = {"cpu-serial", "cuda"};
  f.reps = 17;
  f.warmup = 0;
  f.seed = 18446744073709551615ull;               // survives JSON as text
  f.counters = {"bank_conflicts", "dram_bytes"};  // the lesson's counter first
  return f;
}
}  // namespace

class TestPresets : public QObject {
  Q_OBJECT
 private slots:
  void formRoundTripsThroughJson() {
    const FormState f = sample();
    auto back = formFromJson(formToJson(f));
    QVERIFY(back);
    QVERIFY(*back == f);
    const Preset p{"My preset", f};
    QString err;
    auto q = presetFromJson(presetToJson(p), &err);
    QVERIFY2(q, qPrintable(err));
    QVERIFY(*q == p);
  }

  void badJsonSaysWhy() {
    QString err;
    QVERIFY(!presetFromJson("{not json", &err));
    QVERIFY(err.startsWith("not JSON"));
    QVERIFY(!presetFromJson(R"({"name": "x"})", &err));
    QVERIFY(err.contains("not a LaunchLab preset"));
    QVERIFY(
        !presetFromJson(R"({"launchlab_preset": 1, "name": "x", "form": {"workload": "a", "reps": "five"}})", &err));
    QVERIFY(err.contains("reps"));
    QVERIFY(!presetFromJson(R"({"launchlab_preset": 1, "name": "x", "form": {"size": "1M"}})", &err));
    QVERIFY(err.contains("workload"));
    // An unknown dtype is refused by name instead of becoming the workload's default.
    QVERIFY(
        !presetFromJson(R"({"launchlab_preset": 1, "name": "x", "form": {"workload": "a", "dtype": "f16"}})", &err));
    QVERIFY2(err.contains("unknown dtype 'f16'"), qPrintable(err));
    QVERIFY(!presetFromJson(
        R"({"launchlab_preset": 1, "name": "x", "form": {"workload": "a", "counters": ["sectors"]}})", &err));
    QVERIFY2(err.contains("'counters' must list counter ids"), qPrintable(err));
  }

  // The memory lessons turn counters on, their own first (the one the stage shows).
  void theMemoryLessonsPresetsTurnTheirCountersOn() {
    Registry reg;
    kernels::registerAllWorkloads(reg);
    const std::pair<const char*, const char*> lessons[] = {{"es-coalescing", "sectors_per_request"},
                                                           {"es-col-sums", "sectors_per_request"},
                                                           {"es-matrix-add-2d", "sectors_per_request"},
                                                           {"es-tile-transpose", "bank_conflicts"}};
    for (const auto& [id, counter] : lessons) {
      QString err;
      const auto p = coursePreset(id, reg, &err);
      QVERIFY2(p, qPrintable(err));
      QVERIFY2(!p->form.counters.empty() && p->form.counters.front() == counter, id);
    }
  }

  void filesAndFolder() {
    QTemporaryDir dir;
    const QString path = dir.filePath("p.json");
    QString err;
    QVERIFY(savePresetFile(path, {"file preset", sample()}, &err));
    auto p = loadPresetFile(path, &err);
    QVERIFY(p && p->form == sample());
    QVERIFY(!loadPresetFile(dir.filePath("missing.json"), &err));
    QVERIFY(err.contains("missing.json"));
    QVERIFY(!savePresetFile(dir.filePath("no/dir/p.json"), {"x", sample()}, &err));

    PresetStore store(dir.filePath("presets"));
    QVERIFY(store.save({"Fast / small: 1M?", sample()}, &err));
    QVERIFY(QFile::exists(dir.filePath("presets/Fast___small__1M_.json")));
    QVERIFY(!store.save({"", sample()}, &err));
    const QStringList names = store.names();
    QCOMPARE(names.first(), QString("Fast / small: 1M?"));
    auto loaded = store.load("Fast / small: 1M?", &err);
    QVERIFY(loaded && loaded->form == sample());
    QVERIFY(store.remove("Fast / small: 1M?"));
    QVERIFY(!store.load("Fast / small: 1M?"));
  }

  // A pipe, a device or an oversized file in the preset folder is skipped at once (the folder is read whenever the
  // Presets menu opens), and a name too long for a menu refuses its preset.
  void hostilePresetFilesAreSkippedWithoutWaiting() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("presets");
    PresetStore store(folder);
    QString err;
    QVERIFY(store.save({"good", sample()}, &err));
    QVERIFY(::mkfifo(QFile::encodeName(folder + "/fifo.json").constData(), 0600) == 0);
    QVERIFY(QFile::link("/dev/zero", folder + "/zero.json"));
    QFile big(folder + "/big.json");
    QVERIFY(big.open(QIODevice::WriteOnly) && big.resize(qint64(files::kMaxPresetFileBytes) + 1));
    big.close();
    Preset longName{QString(kMaxPresetNameChars + 1, 'n'), sample()};
    QVERIFY(savePresetFile(folder + "/long.json", longName, &err));
    QVERIFY(!store.save(longName, &err));
    QVERIFY2(err.contains("at most 200 characters"), qPrintable(err));
    QVERIFY(!store.names().filter(QRegularExpression("^n+$")).size());
    QVERIFY(store.names().contains("good"));
    QVERIFY(!loadPresetFile(folder + "/fifo.json", &err));
    QVERIFY2(err.contains("fifo.json: is a pipe (FIFO), not a regular file"), qPrintable(err));
    QVERIFY(!loadPresetFile(folder + "/zero.json", &err));
    QVERIFY2(err.contains("zero.json: is a device"), qPrintable(err));
    QVERIFY(!loadPresetFile(folder + "/big.json", &err));
    QVERIFY2(err.contains("larger than 1 MiB"), qPrintable(err));
    QVERIFY(!loadPresetFile(folder + "/long.json", &err));
    QVERIFY2(err.contains("longer than 200 characters"), qPrintable(err));
  }

  // "lab_a" and "lab a" map to the same file name: the second is saved beside the first, not over it, and each
  // name loads, renames and removes its own preset.
  void namesThatMapToOneFileKeepTheirOwnPresets() {
    QTemporaryDir dir;
    PresetStore store(dir.filePath("presets"));
    FormState a = sample(), b = sample();
    b.workload = "histogram_contention";
    QString err;
    QVERIFY(store.save({"lab_a", a}, &err));
    QVERIFY(store.save({"lab a", b}, &err));
    QVERIFY(store.save({"lab/a", b}, &err));
    QStringList user = store.names().filter(QRegularExpression("^lab"));
    user.sort();
    QCOMPARE(user, QStringList({"lab a", "lab/a", "lab_a"}));
    auto la = store.load("lab_a", &err), lb = store.load("lab a", &err);
    QVERIFY(la && lb);
    QCOMPARE(la->form.workload, std::string("gaussian_pdf"));
    QCOMPARE(lb->form.workload, std::string("histogram_contention"));
    b.reps = 3;  // saving again under the same name replaces that preset only
    QVERIFY(store.save({"lab a", b}, &err));
    QCOMPARE(store.load("lab a")->form.reps, 3);
    QCOMPARE(store.load("lab_a")->form.reps, sample().reps);
    QVERIFY(store.remove("lab a"));
    QVERIFY(!store.load("lab a"));
    QVERIFY(store.load("lab_a"));
    QVERIFY(store.rename("lab/a", "lab a", &err));
    QCOMPARE(store.load("lab a")->form.workload, std::string("histogram_contention"));
    QVERIFY(!store.load("lab/a"));
    QCOMPARE(store.load("lab_a")->form.workload, std::string("gaussian_pdf"));
  }

  // Every experiment of the course opens as a form its workload runs: the request's size, dtype and launch as the
  // course file writes them, its implementations ticked ("all": every one), its counters; and the form's request
  // is the one `launchlab-cli course run` parses from the course file.
  void everyCourseExperimentOpensAsAFormOfItsWorkload() {
    Registry reg;
    kernels::registerAllWorkloads(reg);
    QVERIFY(courseExperiments().size() >= 3);
    for (const auto& e : courseExperiments()) {
      const QString id = QString::fromStdString(e.id);
      const Workload* w = reg.find(e.request.workload);
      if (!w) continue;  // an experiment of a workload this build lacks
      QString err;
      const auto p = coursePreset(e.id, reg, &err);
      QVERIFY2(p, qPrintable(id + ": " + err));
      QCOMPARE(p->courseId, id);
      QCOMPARE(p->name, QString::fromStdString(e.title));
      QCOMPARE(p->form.size, e.request.n);
      QCOMPARE(p->form.dtype, e.request.dtype);
      QCOMPARE(p->form.autoBlock, e.request.block == "auto");
      QCOMPARE(p->form.counters, e.counters);
      QVERIFY2(!p->form.impls.empty(), qPrintable(id));
      for (const auto& i : p->form.impls) QVERIFY2(w->findImpl(i), qPrintable(id + ": " + QString::fromStdString(i)));
      if (e.request.impls == "all") QCOMPARE(p->form.impls.size(), w->impls().size());
      const RunRequest window = parseRequest(requestTextOf(p->form)).request, cli = parseRequest(e.request).request;
      QVERIFY2(window.n == cli.n && window.dtype == cli.dtype && window.launch == cli.launch, qPrintable(id));
      QVERIFY2(window.reps == cli.reps && window.warmup == cli.warmup && window.seed == cli.seed, qPrintable(id));
      for (const auto& [k, v] : cli.params) QVERIFY2(window.params.at(k) == v, qPrintable(id + ": " + k.c_str()));
      if (e.request.impls != "all") QVERIFY2(window.impls == cli.impls, qPrintable(id));
    }
  }

  // The form starts from the workload's defaults: an auto launch of a 2-D workload keeps a 2-D block for when the
  // user unticks auto, and parameters the request leaves out keep their defaults.
  void aCourseFormStartsFromTheWorkloadsDefaults() {
    Registry reg;
    kernels::registerAllWorkloads(reg);
    const Workload* w = reg.find("matrix_add_2d");
    QVERIFY(w);
    CourseExperiment e;
    e.id = "mine";
    e.request = {
        .workload = "matrix_add_2d", .n = "512", .dtype = "f32", .impls = "cpu-serial", .reps = "3", .seed = "7"};
    QString err;
    const auto f = courseForm(e, *w, &err);
    QVERIFY2(f, qPrintable(err));
    const FormState defaults = defaultForm(*w);
    QCOMPARE(f->block, defaults.block);
    QCOMPARE(f->params, defaults.params);
    QCOMPARE(f->impls, std::vector<std::string>{"cpu-serial"});
    QCOMPARE(f->reps, 3);
    QCOMPARE(f->seed, std::uint64_t(7));
    e.request.reps = std::string("five");  // the form holds repetitions as a number: one line naming the experiment
    QVERIFY(!courseForm(e, *w, &err));
    QVERIFY2(err.contains("course experiment 'mine'") && err.contains("'five'"), qPrintable(err));
  }

  void anUnknownExperimentOrAMissingWorkloadIsOneLine() {
    Registry reg;
    kernels::registerAllWorkloads(reg);
    QString err;
    QVERIFY(!coursePreset("no-such-experiment", reg, &err));
    QCOMPARE(err.toStdString(), unknownCourseMessage("no-such-experiment"));
    const Registry empty;
    QVERIFY(!coursePreset(courseExperiments().front().id, empty, &err));
    QVERIFY2(err.endsWith("which this build lacks"), qPrintable(err));
  }

  // The user's settings file as garbage, a folder, or 200 MB: the window starts and says what happened; garbage is
  // kept aside, a huge file is not read (nor touched).
  void aSettingsFileThatCannotBeUsedIsReportedAndKept() {
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", home.path().toUtf8());
    const QString folder = home.filePath("LaunchLab"), path = folder + "/launchlab.conf";
    QVERIFY(QDir().mkpath(folder));
    {
      AppSettings fine;
      QVERIFY2(fine.problem().isEmpty(), qPrintable(fine.problem()));
      fine.setLastWorkload("vector_add");
    }
    QCOMPARE(AppSettings().lastWorkload(), QString("vector_add"));
    QByteArray garbage(4096, '\0');
    for (int i = 0; i < garbage.size(); ++i) garbage[i] = char((i * 7919 + 13) % 256);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(garbage);
    f.close();
    {
      AppSettings s;
      QVERIFY2(s.problem().contains("was not a settings file"), qPrintable(s.problem()));
      QVERIFY(s.lastWorkload().isEmpty());
    }
    QFile kept(path + ".unreadable");
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), garbage);
    QVERIFY(!QFile::exists(path) || QFile::remove(path));  // written again only if the settings were saved
    {
      QFile big(path);
      QVERIFY(big.open(QIODevice::WriteOnly));
      QVERIFY(big.resize(200ll << 20));  // sparse: 200 MB that take no disk
    }
    {
      AppSettings s;
      QVERIFY2(s.problem().contains("200 MB"), qPrintable(s.problem()));
      s.setLastWorkload("histogram");
      s.sync();
    }
    QCOMPARE(QFileInfo(path).size(), 200ll << 20);
    QVERIFY(QFile::remove(path));
    QVERIFY(QDir().mkpath(path));
    QVERIFY2(AppSettings().problem().contains("is a folder"), qPrintable(AppSettings().problem()));
    // A pipe or /dev/zero in its place: refused unread (a pipe would block the window's start; /dev/zero reports
    // 0 bytes and never ends), and this session's settings go elsewhere.
    QVERIFY(QDir(path).removeRecursively());
    QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    {
      AppSettings s;
      QVERIFY2(s.problem().contains("is a pipe (FIFO), not a regular file: it was not read"), qPrintable(s.problem()));
      s.setLastWorkload("histogram");
      s.sync();
      QCOMPARE(s.lastWorkload(), QString("histogram"));
    }
    QVERIFY(QFile::remove(path));
    QVERIFY(QFile::link("/dev/zero", path));
    QVERIFY2(AppSettings().problem().contains("is a device"), qPrintable(AppSettings().problem()));
    QVERIFY(QFile::remove(path));
    qunsetenv("XDG_CONFIG_HOME");
  }

  void settingsRememberPerWorkload() {
    auto s = AppSettings::ephemeral();
    QVERIFY(!s->presentation());
    QVERIFY(!s->lastForm("gaussian_pdf"));
    s->setPresentation(true);
    s->setLastWorkload("gaussian_pdf");
    s->setLastForm(sample());
    s->sync();
    QVERIFY(s->presentation());
    QCOMPARE(s->lastWorkload(), QString("gaussian_pdf"));
    auto f = s->lastForm("gaussian_pdf");
    QVERIFY(f && *f == sample());
    QVERIFY(!s->lastForm("vector_add"));
    // A fresh instance reads what the file holds (persistence), another ephemeral one starts empty.
    QSettings again(s->raw().fileName(), QSettings::IniFormat);
    QCOMPARE(again.value("ui/presentation").toBool(), true);
    QVERIFY(!AppSettings::ephemeral()->presentation());
  }
};

QTEST_MAIN(TestPresets)
#include "test_presets.moc"
