#include "runs/background_read.h"

#include <QThread>

namespace launchlab::ui {

BackgroundRead::~BackgroundRead() {
  if (m_thread) m_thread->wait();
}

bool BackgroundRead::start(std::function<void()> read, std::function<void()> done) {
  if (m_thread) return false;
  m_thread = QThread::create(std::move(read));
  connect(m_thread, &QThread::finished, this, [this, done = std::move(done)] {
    m_thread->deleteLater();
    m_thread = nullptr;
    done();
  });
  m_thread->start();
  return true;
}

}  // namespace launchlab::ui
