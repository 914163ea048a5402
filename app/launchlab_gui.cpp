// launchlab: the Qt 6 desktop front end. Exit codes: 0 ok, 1 a --screenshot/--measure-stalls step failed,
// 2 bad command line, 3 no display (the caller may fall back to launchlab-cli).
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QIcon>
#include <QPixmap>
#include <QSaveFile>
#include <QTimer>
#if LAUNCHLAB_HAVE_POLL
#include <QHostAddress>
#endif
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string_view>
#include <utility>

#include "app/gui_wiring.h"
#include "app/quit_on_signal.h"
#include "dialogs/remote_dialog.h"
#include "explorer/sweep_pane.h"
#include "gl/gl_views.h"
#include "gl/live_mode.h"
#include "launchlab/course/course.h"
#include "launchlab/engine/request.h"
#include "launchlab/worker/remote.h"
#include "launchlab/worker/slurm.h"
#include "models/settings.h"
#include "window/main_window.h"
#include "window/stall_meter.h"

using namespace launchlab::ui;

namespace {

bool hasDisplay() {
  auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
  };
  return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}

/// --help and --version need no display: they are answered before any window system is touched.
bool asksForHelpOrVersion(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help" || a == "-?" || a == "--help-all" || a == "-v" || a == "--version") return true;
  }
  return false;
}

void setApplicationInfo() {
  QCoreApplication::setOrganizationName("LaunchLab");
  QCoreApplication::setApplicationName("launchlab");
  QCoreApplication::setApplicationVersion("0.1.0");
}

struct Options {
  QCommandLineParser parser;
  QCommandLineOption workload{"workload", "Start on workload <id>.", "id"};
  QCommandLineOption course{"course",
                            "Open course experiment <id> (its seed's size, dtype and launch; see 'launchlab-cli "
                            "course').",
                            "id"};
  QCommandLineOption open{
      "open",
      "Open the run file <path> (.llrun, from 'launchlab-cli run --save-run' or Save run) instead of "
      "running: shown as recorded, labelled with the machine that measured it.",
      "path"};
  QCommandLineOption openSweep{
      "open-sweep",
      "Show the sweep file <path> (launchlab-cli sweep --json) in the sweep tab, labelled with "
      "the machine and date it was measured on.",
      "path"};
  QCommandLineOption presentation{"presentation", "Start in presentation mode (projectors)."};
  QCommandLineOption ask{"ask",
                         "With --course and --presentation: start the class poll for the experiment's question at "
                         "once and print 'poll: http://ADDRESS:PORT/CODE' on stdout (then 'poll: N answers' as "
                         "they come); R runs and reveals."};
  QCommandLineOption askBind{"ask-bind", "With --ask: the address the poll listens on (default: the room's network).",
                             "address"};
  QCommandLineOption tab{"tab", "Bring the bottom tab whose name starts with <name> to the front (e.g. roofline).",
                         "name"};
  QCommandLineOption screenshot{
      "screenshot",
      "Wait for the first run (and the sweep of --open-sweep), save the window to <path> (PNG) and exit. Uses "
      "fresh settings, as a new user sees the window.",
      "path"};
  QCommandLineOption printTimings{"print-timings",
                                  "With --screenshot: also print each implementation's timing of the run shown "
                                  "(median and fastest repetition), to compare the window with launchlab-cli run."};
  QCommandLineOption stalls{"measure-stalls",
                            "Measure cold start to first plot and the longest event-loop stall during a 2^24-element "
                            "run and a block-size sweep, print them and exit."};
  QCommandLineOption fresh{"fresh",
                           "Ignore and do not touch saved settings (a new user's view); the temporary settings are "
                           "removed on exit, also on SIGTERM or Ctrl+C."};
  QCommandLineOption noRun{"no-first-run", "Do not run the workload at start."};
  QCommandLineOption live{"live",
                          "Start in live mode: run the selected implementation again and again, a new seed per frame, "
                          "drawing each result as it arrives (Esc or the Live button stops it)."};
  QCommandLineOption noGl{"no-gl",
                          "Draw every plot with QCustomPlot, not OpenGL (also a setting: Draw plots with OpenGL)."};
  QCommandLineOption deviceImports{
      "device-imports",
      "Take a local worker's GPU outputs from its device memory (CUDA IPC) for the "
      "OpenGL plots instead of its host copies (experimental: no faster yet, as the host copies "
      "still cross the pipe; docs/ARCHITECTURE.md)."};
  QCommandLineOption inProcess{"in-process",
                               "Run the engine in this process even with a GPU (by default GPU work runs in a "
                               "launchlab-cli worker process, so a kernel fault cannot take the window down)."};
  QCommandLineOption device{"device",
                            "Run on CUDA device <N> (see 'launchlab-cli info'; the toolbar's picker changes it). A "
                            "device this machine does not have is reported in the window.",
                            "N"};
  QCommandLineOption remote{"remote",
                            "Run jobs on the GPU of <[user@]host[:port]> over SSH (ssh host launchlab-cli worker; key "
                            "login, no password prompt). Saved in the settings as the default. LAUNCHLAB_SSH overrides "
                            "the ssh command and its options. 'local' goes back to this machine.",
                            "host"};
  QCommandLineOption remoteCli{"remote-cli", "The path of launchlab-cli on the --remote host (default: launchlab-cli).",
                               "path"};
  QCommandLineOption slurm{"slurm",
                           "Run jobs in a Slurm job step on a cluster's node (srun … launchlab-cli worker, from this "
                           "machine: a login node). The run's progress line shows the job's state while it waits; Esc "
                           "cancels it (scancel). The GPU server dialog sets the default."};
  QCommandLineOption partition{"partition", "With --slurm: the partition (default: the settings', else the cluster's).",
                               "P"};
  QCommandLineOption time{"time", "With --slurm: the job's time limit, e.g. 30 or 1:00:00.", "T"};
  QCommandLineOption slurmArgs{"slurm-args", "With --slurm: more srun options, e.g. \"--gres=gpu:1 --qos=class\".",
                               "ARGS"};
  QCommandLineOption courseDir{"course-dir",
                               "Also load the course files (*.json, docs/COURSE_FORMAT.md) of folder DIR: their "
                               "experiments follow the built-in course's.",
                               "DIR"};
  QCommandLineOption python{"python",
                            "The Python with numba-cuda that compiles a Python (.py) kernel of the My kernel tab this "
                            "session (the tab's Python... button keeps a choice; default: $LAUNCHLAB_PYTHON, the "
                            "project's .venv, python3).",
                            "path"};
  QCommandLineOption courseDirOnly{"course-dir-only", "With --course-dir: that folder's experiments alone."};
  Options() {
    parser.setApplicationDescription(
        "LaunchLab: pick a CUDA workload, tune its launch, run it, see and export the results.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({workload,  course,        open,         openSweep, tab,       presentation,  screenshot,
                       stalls,    fresh,         noRun,        live,      noGl,      deviceImports, inProcess,
                       device,    remote,        remoteCli,    slurm,     partition, time,          slurmArgs,
                       courseDir, courseDirOnly, printTimings, python,    ask,       askBind});
  }
};

/// Prints the help or the version and exits 0 (QCommandLineParser::process does), with no GUI.
int answerWithoutDisplay(int argc, char** argv) {
  QCoreApplication core(argc, argv);
  setApplicationInfo();
  Options o;
  o.parser.process(core);
  return 0;
}

/// --device N through the one parser of a device index; false after one line on stderr when N is not one. Whether
/// the device exists is the window's to say (inline).
bool readDevice(const QString& text, std::optional<int>& device) {
  launchlab::RequestText t;
  t.device = text.toStdString();
  const launchlab::ParsedRequest p = launchlab::parseRequest(t);
  if (!p.ok()) std::fprintf(stderr, "launchlab: --device: %s\n", p.problems.front().message.c_str());
  device = p.request.device;
  return p.ok();
}

/// The remote host of --remote, else of the settings ("" or "local": this machine), checked; false after one line
/// on stderr when --remote or --remote-cli is not acceptable. Accepted values of --remote and --remote-cli are
/// remembered (the window's "GPU server" dialog edits the same settings); a refused one leaves the settings as they
/// were. A stored host that is not acceptable (a hand-edited file) is reported and this machine is used.
bool readRemote(const Options& o, AppSettings& settings, std::optional<launchlab::RemoteTarget>& target) {
  const bool given = o.parser.isSet(o.remote), cliGiven = o.parser.isSet(o.remoteCli);
  const QString host = given ? o.parser.value(o.remote) : settings.remoteHost();
  const QString cli = cliGiven ? o.parser.value(o.remoteCli) : settings.remoteCli();
  std::string why;
  launchlab::RemoteTarget t;
  const bool local = host.isEmpty() || host == "local";
  if (!cli.isEmpty()) t.cli = cli.toStdString();
  if (!local && !(why = launchlab::parseRemoteTarget(host.toStdString(), t)).empty())
    why = (given ? "--remote: " : "the GPU server in the settings: ") + why;
  else if (cliGiven && !(why = launchlab::checkRemoteCli(cli.toStdString())).empty())
    why = "--remote-cli: " + why;
  else if (!local && !(why = launchlab::checkRemoteCli(t.cli)).empty())
    why = "the launchlab-cli path in the settings: " + why;
  if (!why.empty()) {
    std::fprintf(stderr, "launchlab: %s\n", why.c_str());
    return !given && !cliGiven;
  }
  if (given) settings.setRemoteHost(local ? QString() : host);
  if (cliGiven) settings.setRemoteCli(cli);
  if (!local) target = t;
  return true;
}

/// Where Slurm runs go: --slurm's options over the settings' (the GPU server dialog), when --slurm is given or the
/// settings say so (and no --remote was given); false after one line on stderr when a given option is not acceptable
/// (a partition the cluster lacks included). A stored form that is not acceptable is reported and not used.
bool readSlurm(const Options& o, AppSettings& settings, const std::string& cli,
               std::optional<launchlab::SlurmTarget>& target) {
  const launchlab::ui::SlurmForm saved = launchlab::ui::loadSlurmForm(settings);
  const bool given = o.parser.isSet(o.slurm);
  if (!given && (!saved.enabled || o.parser.isSet(o.remote))) return true;
  auto pick = [&](const QCommandLineOption& opt, const QString& stored) {
    return (o.parser.isSet(opt) ? o.parser.value(opt) : stored).trimmed().toStdString();
  };
  launchlab::SlurmTarget t;
  t.partition = pick(o.partition, saved.partition);
  t.time = pick(o.time, saved.time);
  t.extraArgs = pick(o.slurmArgs, saved.args);
  t.cli = cli;  // the same path on the nodes: a cluster's shared file system
  std::string why = launchlab::checkSlurmTarget(t);
  if (why.empty() && given) why = launchlab::slurmPartitionProblem(t.partition);
  if (!why.empty()) {
    std::fprintf(stderr, "launchlab: %s%s\n", given ? "" : "the Slurm settings: ", why.c_str());
    return !given;
  }
  target = t;
  return true;
}

/// --course-dir: the instructor's experiments join the course before the window reads it. A file that is refused
/// is one line on stderr (its path and field) and the others load; false (after one line) when the options
/// themselves are wrong.
/// --ask needs a course experiment on the stage; --ask-bind an IP address. One line on stderr when not.
bool readAsk(const Options& o, MainWindowOptions& opts) {
  const QCommandLineParser& p = o.parser;
  auto fail = [](const char* why) {
    std::fprintf(stderr, "launchlab: %s\n", why);
    return false;
  };
  if (p.isSet(o.askBind) && !p.isSet(o.ask)) return fail("--ask-bind: only with --ask");
  if (!p.isSet(o.ask)) return true;
  if (!p.isSet(o.course) || !p.isSet(o.presentation)) return fail("--ask: needs --course ID and --presentation");
#if LAUNCHLAB_HAVE_POLL
  const QString bind = p.value(o.askBind);
  if (p.isSet(o.askBind) && QHostAddress(bind).isNull()) return fail("--ask-bind: not an IP address");
  opts.ask = true;
  opts.askBind = bind;
  return true;
#else
  Q_UNUSED(opts);
  return fail("--ask: this build has no class poll (it needs Qt HTTP Server and libqrencode)");
#endif
}

bool readCourseDir(const Options& o) {
  if (!o.parser.isSet(o.courseDir)) {
    if (o.parser.isSet(o.courseDirOnly)) std::fprintf(stderr, "launchlab: --course-dir-only needs --course-dir\n");
    return !o.parser.isSet(o.courseDirOnly);
  }
  const std::string dir = o.parser.value(o.courseDir).toStdString();
  if (!std::filesystem::is_directory(dir)) {
    std::fprintf(stderr, "launchlab: --course-dir: %s is not a folder\n", dir.c_str());
    return false;
  }
  for (const auto& p : launchlab::useCourseDir(dir, o.parser.isSet(o.courseDirOnly)))
    std::fprintf(stderr, "launchlab: --course-dir: %s\n", p.c_str());
  return true;
}

/// --print-timings: one line per implementation of the run the window shows, as the timing chart has it.
void printTimings(const MainWindow& window) {
  const auto shown = window.results().last();
  if (!shown) return void(std::printf("timings: no run shown\n"));
  for (const auto& i : shown->result.impls) {
    const auto phase = i.phases.find(i.gpu ? launchlab::Phase::Kernel : launchlab::Phase::Cpu);
    if (i.status != launchlab::Status::Ok || phase == i.phases.end()) {
      std::printf("timing %s: %s\n", i.implId.c_str(), i.reason.empty() ? "no timing" : i.reason.c_str());
      continue;
    }
    std::printf("timing %s %s: median %.6g ms, fastest %.6g ms over %d repetitions\n", i.implId.c_str(),
                i.gpu ? "kernel" : "cpu", phase->second.medianMs, phase->second.minMs, phase->second.samples);
  }
}

/// --screenshot: once the first plot is shown (live mode: after 3 s of frames, so the printed frame rate is the
/// steady one), or once live mode has failed (its reason on screen and on stderr), the window is saved and the
/// program exits: 0, or 1 when the grab or live mode failed. With --open-sweep the grab also waits for the sweep,
/// and says when it was shown and the longest time the event loop was blocked until then (the line
/// scripts/bench/open_sweep.sh reads).
void screenshotWhenShown(MainWindow& window, const QString& shot, bool timings, bool sweepFile) {
  auto liveFailed = std::make_shared<bool>(false);
  auto grabAndQuit = [&window, shot, timings, liveFailed] {
    QSaveFile file(shot);  // write-to-temporary-and-rename: an interrupted grab never leaves half a PNG
    const bool ok = file.open(QIODevice::WriteOnly) && window.grab().save(&file, "PNG") && file.commit();
    std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "could not write", qPrintable(shot));
    if (window.live().liveMode()->active())
      std::printf("%s\n%s \xC2\xB7 last %s\n", qPrintable(liveStatsText(window.live().liveMode()->stats())),
                  qPrintable(liveTimingText(window.live().liveMode()->stats())),
                  qPrintable(GlViews::instance().lastFrameTimes().isEmpty() ? QString("GL frame: none shown")
                                                                            : GlViews::instance().lastFrameTimes()));
    if (timings) printTimings(window);
    std::fflush(stdout);
    QCoreApplication::exit(ok && !*liveFailed ? 0 : 1);
  };
  auto pending = std::make_shared<bool>(false);
  auto waitingSweep = std::make_shared<bool>(sweepFile);
  auto delayMs = std::make_shared<int>(-1);  // the first plot's grab delay, once it is shown
  auto grabSoon = [&window, grabAndQuit, pending, waitingSweep, delayMs](int ms) {
    *delayMs = ms;
    if (*waitingSweep || std::exchange(*pending, true)) return;  // one grab, whichever comes first
    QTimer::singleShot(ms, &window, grabAndQuit);                // queued replots and layout settle first
  };
  QObject::connect(&window, &MainWindow::firstPlotShown, &window,
                   [&window, grabSoon] { grabSoon(window.live().liveMode()->active() ? 3000 : 800); });
  // Live frames that fail never show a first plot: the failure is the screenshot.
  QObject::connect(window.live().liveMode(), &LiveMode::failed, &window, [grabSoon, liveFailed](const QString& why) {
    *liveFailed = true;
    std::fprintf(stderr, "launchlab: live mode failed: %s\n", qPrintable(why));
    grabSoon(800);
  });
  if (!sweepFile) return;
  auto* beat = new Heartbeat(5, &window);
  auto clock = std::make_shared<QElapsedTimer>();
  clock->start();
  beat->start();
  QObject::connect(window.desk().sweepPane(), &SweepPane::sweepFileOpened, &window, [=, &window](bool shown) {
    QTimer::singleShot(0, &window, [=] {  // after the replots the opening queued
      beat->stop();
      std::printf("sweep %s %lld ms after the window; longest event-loop stall %.0f ms\n",
                  shown ? "shown" : "not shown", static_cast<long long>(clock->elapsed()), beat->longestGapMs());
      *waitingSweep = false;
      if (*delayMs >= 0) grabSoon(*delayMs);
    });
  });
}

}  // namespace

int main(int argc, char** argv) {
  QElapsedTimer startClock;
  startClock.start();
  if (asksForHelpOrVersion(argc, argv)) return answerWithoutDisplay(argc, argv);
  // Before QApplication, which would abort without a display: one line, exit code 3.
  if (!hasDisplay()) {
    std::fprintf(stderr,
                 "launchlab: no display (DISPLAY and WAYLAND_DISPLAY are unset; set QT_QPA_PLATFORM=offscreen to "
                 "force) - use launchlab-cli instead\n");
    return 3;
  }
  QApplication app(argc, argv);
  setApplicationInfo();
  QApplication::setWindowIcon(QIcon(":/icons/launchlab.svg"));
  QGuiApplication::setDesktopFileName("org.launchlab.launchlab");  // the installed .desktop entry (Wayland app id)
  launchlab::app::quitOnTerminationSignals();

  Options o;
  o.parser.process(app);
  const QCommandLineParser& parser = o.parser;

  // The editor's compile and the worker (started later, inheriting the environment) both take it from there.
  if (parser.isSet(o.python)) qputenv("LAUNCHLAB_PYTHON", parser.value(o.python).toLocal8Bit());
  const QString shot = parser.value(o.screenshot);
  const bool measure = parser.isSet(o.stalls);
  const bool fresh = parser.isSet(o.fresh) || !shot.isEmpty() || measure;

  MainWindowOptions opts;
  opts.startWorkload = parser.value(o.workload);
  if (!readCourseDir(o)) return 2;
  opts.startCourse = parser.value(o.course);
  if (parser.isSet(o.course) && !launchlab::findCourseExperiment(opts.startCourse.toStdString())) {
    std::fprintf(stderr, "launchlab: --course: %s\n",
                 launchlab::unknownCourseMessage(opts.startCourse.toStdString()).c_str());
    return 2;
  }
  if (parser.isSet(o.device) && !readDevice(parser.value(o.device), opts.startDevice)) return 2;
  opts.openRun = parser.value(o.open);
  opts.openSweep = parser.value(o.openSweep);
  opts.startTab = parser.value(o.tab);
  opts.forcePresentation = parser.isSet(o.presentation);
  if (!readAsk(o, opts)) return 2;
  opts.firstRun = !parser.isSet(o.noRun) || !shot.isEmpty() || measure;
  opts.live = parser.isSet(o.live);
  opts.noGl = parser.isSet(o.noGl);
  opts.deviceImports = parser.isSet(o.deviceImports);
  opts.startClock = &startClock;
  std::unique_ptr<AppSettings> settings = fresh ? AppSettings::ephemeral() : std::make_unique<AppSettings>();
  if (fresh) opts.presetFolder = settings->privateFolder() + "/presets";
  if (fresh) opts.exerciseFolder = settings->privateFolder() + "/exercises";

  std::optional<launchlab::RemoteTarget> remote;
  if (!readRemote(o, *settings, remote)) return 2;

  std::string backendNote;
  const std::string workerPath = (QCoreApplication::applicationDirPath() + "/launchlab-cli").toStdString();
  std::optional<launchlab::SlurmTarget> slurm;
  if (!readSlurm(o, *settings, workerPath, slurm)) return 2;
  const char* ssh = std::getenv("LAUNCHLAB_SSH");
  std::shared_ptr<Backend> backend =
      slurm    ? launchlab::app::makeRemoteBackend(launchlab::slurmWorkerCommand(*slurm), backendNote)
      : remote ? launchlab::app::makeRemoteBackend(launchlab::remoteWorkerCommand(*remote, ssh ? ssh : ""), backendNote)
               : launchlab::app::makeBackend(workerPath, parser.isSet(o.inProcess), backendNote);
  opts.backendNote = QString::fromStdString(backendNote);
  MainWindow window(std::move(backend), std::move(settings), opts);
  window.show();

  if (!shot.isEmpty()) screenshotWhenShown(window, shot, parser.isSet(o.printTimings), !opts.openSweep.isEmpty());
  std::unique_ptr<StallMeasurement> stalls;
  if (measure) stalls = std::make_unique<StallMeasurement>(window, startClock);
  return app.exec();
}
