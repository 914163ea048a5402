// launchlab: the Qt 6 desktop front end. Exit codes: 0 ok, 1 a --screenshot/--measure-stalls step failed,
// 2 bad command line, 3 no display (the caller may fall back to launchlab-cli).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QPixmap>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

#include "app/gui_wiring.h"
#include "ui/main_window.h"
#include "ui/settings.h"
#include "ui/stall_meter.h"

using namespace launchlab::ui;

namespace {

bool hasDisplay() {
  auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
  };
  return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}

}  // namespace

int main(int argc, char** argv) {
  QElapsedTimer startClock;
  startClock.start();
  // Before QApplication, which would abort without a display: one line, exit code 3.
  if (!hasDisplay()) {
    std::fprintf(stderr,
                 "launchlab: no display (DISPLAY and WAYLAND_DISPLAY are unset; set QT_QPA_PLATFORM=offscreen to "
                 "force) - use launchlab-cli instead\n");
    return 3;
  }
  QApplication app(argc, argv);
  QApplication::setOrganizationName("LaunchLab");
  QApplication::setApplicationName("launchlab");
  QApplication::setApplicationVersion("0.1.0");

  QCommandLineParser parser;
  parser.setApplicationDescription("LaunchLab: pick a CUDA workload, tune its launch, run it, see and export the results.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption workloadOpt("workload", "Start on workload <id>.", "id");
  QCommandLineOption presentationOpt("presentation", "Start in presentation mode (projectors).");
  QCommandLineOption screenshotOpt("screenshot",
                                   "Wait for the first run, save the window to <path> (PNG) and exit. Uses fresh settings, "
                                   "as a new user sees the window.",
                                   "path");
  QCommandLineOption stallsOpt("measure-stalls",
                               "Measure cold start to first plot and the longest event-loop stall during a 2^24-element "
                               "run and a block-size sweep, print them and exit.");
  QCommandLineOption freshOpt("fresh", "Ignore and do not touch saved settings (a new user's view).");
  QCommandLineOption noRunOpt("no-first-run", "Do not run the workload at start.");
  QCommandLineOption inProcessOpt("in-process",
                                  "Run the engine in this process even with a GPU (by default GPU work runs in a "
                                  "launchlab-cli worker process, so a kernel fault cannot take the window down).");
  parser.addOptions({workloadOpt, presentationOpt, screenshotOpt, stallsOpt, freshOpt, noRunOpt, inProcessOpt});
  parser.process(app);

  const QString shot = parser.value(screenshotOpt);
  const bool measure = parser.isSet(stallsOpt);
  const bool fresh = parser.isSet(freshOpt) || !shot.isEmpty() || measure;

  MainWindowOptions opts;
  opts.startWorkload = parser.value(workloadOpt);
  opts.forcePresentation = parser.isSet(presentationOpt);
  opts.firstRun = !parser.isSet(noRunOpt) || !shot.isEmpty() || measure;
  opts.startClock = &startClock;
  std::unique_ptr<AppSettings> settings = fresh ? AppSettings::ephemeral() : std::make_unique<AppSettings>();
  if (fresh) opts.presetFolder = QDir::temp().filePath("launchlab-fresh-presets-unused");

  std::string backendNote;
  const std::string workerPath = (QCoreApplication::applicationDirPath() + "/launchlab-cli").toStdString();
  auto backend = launchlab::app::makeBackend(workerPath, parser.isSet(inProcessOpt), backendNote);
  opts.backendNote = QString::fromStdString(backendNote);
  MainWindow window(std::move(backend), std::move(settings), opts);
  window.show();

  if (!shot.isEmpty()) {
    QObject::connect(&window, &MainWindow::firstPlotShown, &window, [&window, shot] {
      // Let queued replots and layout settle, then grab what a user sees.
      QTimer::singleShot(800, &window, [&window, shot] {
        const bool ok = window.grab().save(shot, "PNG");
        std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "could not write", qPrintable(shot));
        QCoreApplication::exit(ok ? 0 : 1);
      });
    });
  }
  std::unique_ptr<StallMeasurement> stalls;
  if (measure) stalls = std::make_unique<StallMeasurement>(window, startClock);
  return app.exec();
}
