#pragma once
/// The question a course experiment asks before its run, with its input (a number field with the unit, or one
/// button per choice; Enter submits, Esc skips), and after the run the reveal: the measured answer, the prediction,
/// how far off, and why. Shown at the desk and on the stage; the words come from StageController.
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QHBoxLayout;

namespace launchlab {
struct Prediction;
}

namespace launchlab::ui {

class StagePrompt : public QWidget {
  Q_OBJECT
 public:
  explicit StagePrompt(QWidget* parent = nullptr);
  /// The question and its input; nullptr hides the prompt.
  void ask(const Prediction* p);
  /// The input stays, greyed, once answered (or skipped); the reveal shows under the question.
  void setAnswered(bool answered);
  /// The answer field and buttons (on the stage they fold away once answered).
  void setInputVisible(bool on);
  /// One line under the input: why an answer was refused (""; hidden).
  void setError(const QString& text);
  /// The reveal (rich text built by StageController); "" hides it.
  void setReveal(const QString& html);
  /// Sizes for the stage (presentation: large type that scales with the window) or the desk.
  void setTextSizes(int questionPx, int bodyPx);

  QLabel* questionLabel() const { return m_question; }
  QLabel* revealLabel() const { return m_reveal; }
  QLineEdit* answerField() const { return m_answer; }
  /// The choice buttons (empty for a number question).
  QList<QPushButton*> choiceButtons() const { return m_choices; }

 signals:
  void submitted(const QString& text);
  void skipped();

 protected:
  void keyPressEvent(QKeyEvent* e) override;

 private:
  QWidget* m_inputRow = nullptr;
  QLabel* m_question = nullptr;
  QLineEdit* m_answer = nullptr;
  QLabel* m_unit = nullptr;
  QPushButton* m_submit = nullptr;
  QPushButton* m_skip = nullptr;
  QHBoxLayout* m_choiceRow = nullptr;
  QList<QPushButton*> m_choices;
  QLabel* m_error = nullptr;
  QLabel* m_reveal = nullptr;
};

}  // namespace launchlab::ui
