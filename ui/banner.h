#pragma once
/// A non-modal message strip inside the window (hotspot style): device status, errors, notes.
/// A new message replaces the old one; repeated identical messages are counted, not stacked.
#include <QFrame>

class QLabel;
class QToolButton;

namespace launchlab::ui {

class Banner : public QFrame {
  Q_OBJECT
 public:
  enum class Level { Info, Warning, Error, Success };
  explicit Banner(QWidget* parent = nullptr, bool closable = true);
  void showMessage(Level level, const QString& text);
  QString text() const;
  Level level() const { return m_level; }

 private:
  QLabel* m_icon;
  QLabel* m_text;
  QToolButton* m_close;
  Level m_level = Level::Info;
  QString m_last;
  int m_repeats = 0;
};

}  // namespace launchlab::ui
