#include "window/stage_prompt.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "launchlab/course/prediction.h"
#include "models/text.h"

namespace launchlab::ui {

namespace {

void setPixelSize(QWidget* w, int px, bool bold = false) {
  QFont f = w->font();
  f.setPixelSize(px);
  f.setBold(bold);
  w->setFont(f);
}
}  // namespace

StagePrompt::StagePrompt(QWidget* parent) : QWidget(parent) {
  setObjectName("stagePrompt");
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(6, 2, 6, 2);
  lay->setSpacing(4);
  m_question = new QLabel;
  m_question->setObjectName("stageQuestion");
  m_question->setWordWrap(true);
  m_question->setTextFormat(Qt::PlainText);
  m_inputRow = new QWidget;
  auto* row = new QHBoxLayout(m_inputRow);
  row->setContentsMargins(0, 0, 0, 0);
  m_answer = new QLineEdit;
  m_answer->setObjectName("stageAnswer");
  m_answer->setPlaceholderText("your prediction");
  m_answer->setMaximumWidth(260);
  m_unit = new QLabel;
  m_choiceRow = new QHBoxLayout;
  m_submit = new QPushButton("Predict");
  m_submit->setToolTip("Keep the prediction and run (Enter)");
  m_skip = new QPushButton("Skip");
  m_skip->setToolTip("Run without a prediction (Esc)");
  row->addWidget(m_answer);
  row->addWidget(m_unit);
  row->addLayout(m_choiceRow);
  row->addWidget(m_submit);
  row->addWidget(m_skip);
  row->addStretch(1);
  m_error = new QLabel;
  m_error->setObjectName("stageAnswerError");
  m_error->setStyleSheet("color: #b00020");
  m_error->setVisible(false);
  m_reveal = new QLabel;
  m_reveal->setObjectName("stageReveal");
  m_reveal->setWordWrap(true);
  m_reveal->setTextFormat(Qt::RichText);
  m_reveal->setVisible(false);
  lay->addWidget(m_question);
  lay->addWidget(m_inputRow);
  lay->addWidget(m_error);
  lay->addWidget(m_reveal);
  connect(m_answer, &QLineEdit::returnPressed, this, [this] { emit submitted(m_answer->text()); });
  connect(m_submit, &QPushButton::clicked, this, [this] { emit submitted(m_answer->text()); });
  connect(m_skip, &QPushButton::clicked, this, &StagePrompt::skipped);
  setVisible(false);
}

void StagePrompt::ask(const Prediction* p) {
  for (QPushButton* b : m_choices) b->deleteLater();
  m_choices.clear();
  setError({});
  setReveal({});
  m_answer->clear();
  if (!p) return setVisible(false);
  m_question->setText(q(p->question));
  const bool choice = p->answer.isChoice();
  m_answer->setVisible(!choice);
  m_submit->setVisible(!choice);
  m_unit->setText(q(p->answer.unit));
  m_unit->setVisible(!choice && !p->answer.unit.empty());
  for (const auto& c : p->answer.choices) {
    auto* b = new QPushButton(q(c));
    b->setFont(m_skip->font());
    connect(b, &QPushButton::clicked, this, [this, c] { emit submitted(q(c)); });
    m_choiceRow->addWidget(b);
    m_choices << b;
  }
  setAnswered(false);
  setVisible(true);
}

void StagePrompt::setAnswered(bool answered) {
  for (QWidget* w : {static_cast<QWidget*>(m_answer), static_cast<QWidget*>(m_submit), static_cast<QWidget*>(m_skip)})
    w->setEnabled(!answered);
  for (QPushButton* b : m_choices) b->setEnabled(!answered);
}

void StagePrompt::setInputVisible(bool on) { m_inputRow->setVisible(on); }

void StagePrompt::setError(const QString& text) {
  m_error->setText(text);
  m_error->setVisible(!text.isEmpty());
}

void StagePrompt::setReveal(const QString& html) {
  m_reveal->setText(html);
  m_reveal->setVisible(!html.isEmpty());
}

void StagePrompt::setTextSizes(int questionPx, int bodyPx) {
  setPixelSize(m_question, questionPx, true);
  for (QWidget* w : std::initializer_list<QWidget*>{m_answer, m_unit, m_submit, m_skip, m_error, m_reveal})
    setPixelSize(w, bodyPx);
  for (QPushButton* b : m_choices) setPixelSize(b, bodyPx);
}

void StagePrompt::keyPressEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_Escape && m_skip->isEnabled()) return emit skipped();
  QWidget::keyPressEvent(e);
}

}  // namespace launchlab::ui
