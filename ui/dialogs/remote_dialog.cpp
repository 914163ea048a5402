#include "remote_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "launchlab/remote.h"
#include "settings.h"

namespace launchlab::ui {

QString checkRemoteForm(const QString& host, const QString& cli) {
  const QString h = host.trimmed();
  if (h.isEmpty() || h == "local") return {};
  RemoteTarget t;
  std::string why = parseRemoteTarget(h.toStdString(), t);
  if (why.empty() && !cli.trimmed().isEmpty()) why = checkRemoteCli(cli.trimmed().toStdString());
  const QString line = QString::fromStdString(why);
  return line.isEmpty() ? line : line.left(1).toUpper() + line.mid(1);
}

RemoteDialog::RemoteDialog(AppSettings& settings, const QString& current, QWidget* parent)
    : QDialog(parent), m_settings(settings) {
  setWindowTitle("GPU server");
  setMinimumWidth(fontMetrics().averageCharWidth() * 70);
  auto* intro = new QLabel(
      "Run the jobs on this machine, or on a GPU server over SSH (key-based login: ssh must connect without a "
      "password). The server needs launchlab-cli; the plots are drawn here from the arrays that come back.");
  intro->setWordWrap(true);
  auto* now = new QLabel("Runs go to: " +
                         (current.isEmpty() ? QString("this machine") : current.toHtmlEscaped() + " (over SSH)"));
  m_host = new QLineEdit(m_settings.remoteHost());
  m_host->setPlaceholderText("this machine (or user@gpu-server[:port])");
  m_host->setToolTip("[user@]host[:port], as for launchlab --remote; empty or \"local\" for this machine");
  m_cli = new QLineEdit(m_settings.remoteCli());
  m_cli->setPlaceholderText("launchlab-cli");
  m_cli->setToolTip("The path of launchlab-cli on the server (default: launchlab-cli on its PATH)");
  m_problem = new QLabel;
  m_problem->setWordWrap(true);
  m_problem->setStyleSheet("color: #b00020;");
  auto* form = new QFormLayout;
  form->addRow("GPU server:", m_host);
  form->addRow("launchlab-cli there:", m_cli);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
  m_save = buttons->addButton("Save (next start)", QDialogButtonBox::AcceptRole);
  m_restart = buttons->addButton("Save and restart now", QDialogButtonBox::ApplyRole);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addWidget(now);
  layout->addLayout(form);
  layout->addWidget(m_problem);
  layout->addWidget(buttons);
  connect(m_host, &QLineEdit::textChanged, this, &RemoteDialog::check);
  connect(m_cli, &QLineEdit::textChanged, this, &RemoteDialog::check);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(m_save, &QPushButton::clicked, this, [this] {
    if (save()) accept();
  });
  connect(m_restart, &QPushButton::clicked, this, [this] {
    if (!save()) return;
    accept();
    emit restartRequested();
  });
  check();
}

void RemoteDialog::check() {
  const QString why = checkRemoteForm(m_host->text(), m_cli->text());
  m_problem->setText(why);
  m_problem->setVisible(!why.isEmpty());
  m_save->setEnabled(why.isEmpty());
  m_restart->setEnabled(why.isEmpty());
}

bool RemoteDialog::save() {
  if (!checkRemoteForm(m_host->text(), m_cli->text()).isEmpty()) return false;
  const QString host = m_host->text().trimmed();
  m_settings.setRemoteHost(host == "local" ? QString() : host);
  m_settings.setRemoteCli(m_cli->text().trimmed());
  m_settings.sync();
  return true;
}

}  // namespace launchlab::ui
