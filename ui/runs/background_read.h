#pragma once
/// A file read off the GUI thread: a large or hostile run or sweep file must not freeze the window while it is
/// read and checked. One read at a time; its result is handed over on the owner's (GUI) thread; the destructor
/// waits for a read in progress (every reader is bounded in size and linear in time).
#include <QObject>
#include <functional>

class QThread;

namespace launchlab::ui {

class BackgroundRead final : public QObject {
 public:
  explicit BackgroundRead(QObject* parent = nullptr) : QObject(parent) {}
  ~BackgroundRead() override;
  bool busy() const { return m_thread != nullptr; }
  /// Runs `read` on a thread of its own, then `done` on this object's thread. False (nothing started) while
  /// another read is in progress.
  bool start(std::function<void()> read, std::function<void()> done);

 private:
  QThread* m_thread = nullptr;
};

}  // namespace launchlab::ui
