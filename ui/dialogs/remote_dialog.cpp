#include "dialogs/remote_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "launchlab/worker/remote.h"
#include "launchlab/worker/slurm.h"
#include "models/settings.h"

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

SlurmForm loadSlurmForm(AppSettings& settings) {
  QSettings& raw = settings.raw();
  return {raw.value("slurm/enabled", false).toBool(), raw.value("slurm/partition").toString(),
          raw.value("slurm/time").toString(), raw.value("slurm/args").toString()};
}

void saveSlurmForm(AppSettings& settings, const SlurmForm& form) {
  QSettings& raw = settings.raw();
  raw.setValue("slurm/enabled", form.enabled);
  raw.setValue("slurm/partition", form.partition);
  raw.setValue("slurm/time", form.time);
  raw.setValue("slurm/args", form.args);
}

QString checkSlurmForm(const SlurmForm& form, const QString& host) {
  if (!form.enabled) return {};
  if (!host.trimmed().isEmpty() && host.trimmed() != "local")
    return "Slurm runs from this machine (a cluster's login node): leave the GPU server empty";
  SlurmTarget t;
  t.partition = form.partition.trimmed().toStdString();
  t.time = form.time.trimmed().toStdString();
  t.extraArgs = form.args.trimmed().toStdString();
  return QString::fromStdString(checkSlurmTarget(t));
}

QGroupBox* RemoteDialog::slurmGroup() {
  const SlurmForm form = loadSlurmForm(m_settings);
  auto* box = new QGroupBox("Through Slurm: srun from this machine onto a cluster's node");
  box->setCheckable(true);
  box->setChecked(form.enabled);
  m_partition = new QLineEdit(form.partition);
  m_partition->setPlaceholderText("the cluster's default");
  m_time = new QLineEdit(form.time);
  m_time->setPlaceholderText("the partition's default (e.g. 30 or 1:00:00)");
  m_args = new QLineEdit(form.args);
  m_args->setPlaceholderText("e.g. --gres=gpu:1 --qos=class");
  m_args->setToolTip("More srun options, each -x or --name=value");
  auto* form2 = new QFormLayout(box);
  form2->addRow("Partition:", m_partition);
  form2->addRow("Time limit:", m_time);
  form2->addRow("More srun options:", m_args);
  auto* note = new QLabel("While the job waits for a node the run's progress line shows its state; Esc cancels it.");
  note->setWordWrap(true);
  form2->addRow(note);
  for (QLineEdit* e : {m_partition, m_time, m_args}) connect(e, &QLineEdit::textChanged, this, &RemoteDialog::check);
  connect(box, &QGroupBox::toggled, this, &RemoteDialog::check);
  return box;
}

SlurmForm RemoteDialog::slurmForm() const {
  return {m_slurm->isChecked(), m_partition->text().trimmed(), m_time->text().trimmed(), m_args->text().trimmed()};
}

RemoteDialog::RemoteDialog(AppSettings& settings, const QString& current, QWidget* parent)
    : QDialog(parent), m_settings(settings) {
  setWindowTitle("GPU server");
  setMinimumWidth(fontMetrics().averageCharWidth() * 70);
  auto* intro = new QLabel(
      "Run the jobs on this machine, or on a GPU server over SSH (key-based login: ssh must connect without a "
      "password). The server needs launchlab-cli; the plots are drawn here from the arrays that come back.");
  intro->setWordWrap(true);
  auto* now =
      new QLabel("Runs go to: " + (current.isEmpty()                    ? QString("this machine")
                                   : current.startsWith("a Slurm node") ? current.toHtmlEscaped()
                                                                        : current.toHtmlEscaped() + " (over SSH)"));
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
  m_slurm = slurmGroup();
  layout->addWidget(m_slurm);
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
  QString why = checkRemoteForm(m_host->text(), m_cli->text());
  if (why.isEmpty()) why = checkSlurmForm(slurmForm(), m_host->text());
  m_problem->setText(why);
  m_problem->setVisible(!why.isEmpty());
  m_save->setEnabled(why.isEmpty());
  m_restart->setEnabled(why.isEmpty());
}

bool RemoteDialog::save() {
  if (!checkRemoteForm(m_host->text(), m_cli->text()).isEmpty()) return false;
  if (!checkSlurmForm(slurmForm(), m_host->text()).isEmpty()) return false;
  saveSlurmForm(m_settings, slurmForm());
  const QString host = m_host->text().trimmed();
  m_settings.setRemoteHost(host == "local" ? QString() : host);
  m_settings.setRemoteCli(m_cli->text().trimmed());
  m_settings.sync();
  return true;
}

}  // namespace launchlab::ui
