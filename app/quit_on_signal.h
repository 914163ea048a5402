#pragma once
/// SIGTERM and SIGINT end the application through its event loop (QCoreApplication::quit), so that destructors
/// run: a --fresh instance's temporary settings folder is removed, as on a normal quit. The handler only writes one
/// byte to a pipe (async-signal-safe); a QSocketNotifier on the other end calls quit in the event loop.
namespace launchlab::app {

/// Call once, after the QCoreApplication exists. Returns false (and leaves the default handlers) when the pipe
/// cannot be made.
bool quitOnTerminationSignals();

}  // namespace launchlab::app
