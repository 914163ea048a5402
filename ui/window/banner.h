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
  /// Lesson: the outcome a demonstration exists to show (amber, with an information icon: nothing went wrong).
  enum class Level { Info, Warning, Error, Success, Lesson };
  explicit Banner(QWidget* parent = nullptr, bool closable = true);
  void showMessage(Level level, const QString& text);
  QString text() const;
  Level level() const { return m_level; }
  /// Floats this banner over the top edge of `anchor` (a sibling) instead of taking room in a layout: showing
  /// or hiding it never moves the widgets under the mouse. Follows the anchor's geometry.
  void overlay(QWidget* anchor);

 protected:
  bool eventFilter(QObject* o, QEvent* e) override;

 private:
  void placeOverAnchor();
  QLabel* m_icon;
  QLabel* m_text;
  QToolButton* m_close;
  Level m_level = Level::Info;
  QString m_last;
  int m_repeats = 0;
  QWidget* m_anchor = nullptr;
};

}  // namespace launchlab::ui
