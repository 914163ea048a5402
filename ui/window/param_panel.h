#pragma once
/// The parameter panel, generated from a workload's metadata: size (log slider + text with K/M/Mi
/// suffixes), dtype, the workload's parameters, threads per block and blocks (1D or 2D, auto or manual),
/// implementations, repetitions. Every field is checked as it changes and marked in place with the reason.
#include <QMap>
#include <QWidget>
#include <optional>

#include "models/form_state.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSlider;
class QSpinBox;
class QVBoxLayout;

namespace launchlab::ui {

class Backend;

class ParamPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ParamPanel(const Backend& backend, QWidget* parent = nullptr);
  /// Shows `f` (rebuilding the widgets when the workload changes) and checks it; the CUDA rows follow the
  /// backend's device as it is now (call it again when the device becomes known).
  void setForm(const FormState& f);
  const FormState& form() const { return m_form; }
  const FormCheck& check() const { return m_check; }
  /// The editor of a field ("size", "dtype", "param:<name>", "block", "grid", "reps", "warmup", "impl:<id>").
  QWidget* editor(const QString& field) const { return m_editors.value(field); }
  /// The kernel editor's file: offers "My kernel" among the implementations while its exercise belongs to the
  /// workload on screen (nothing: not offered), and validates the request with it.
  void setUserKernel(std::optional<UserKernel> k);
  /// The "My kernel" box (null until a workload is shown).
  QCheckBox* myKernelBox() const { return m_myKernelBox; }
  /// The "Counters" box (FormState::counters), which the toolbar's Counters toggle follows.
  QCheckBox* countersBox() const { return m_counters; }
  /// The message shown in place for a field ("" when none).
  QString fieldMessage(const QString& field) const;

 signals:
  /// The form changed (and was checked).
  void changed();
  /// Return was pressed in a text field.
  void submit();

 private:
  /// Rebuilds the widgets for `w`: one group box per part of the form.
  void rebuild(const Workload& w);
  QGroupBox* buildSizeBox(const WorkloadInfo& info);
  QGroupBox* buildParamsBox(const WorkloadInfo& info);
  QHBoxLayout* paramRow(const ParamSpec& p);
  QGroupBox* buildLaunchBox(const WorkloadInfo& info);
  QWidget* blockShapeList();
  QWidget* blockSlider(int maxThreadsPerBlock);
  QGroupBox* buildImplsBox(const Workload& w);
  QCheckBox* implBox(const ImplSpec& impl);
  void showDeviceState();
  QGroupBox* buildMeasurementBox();
  void load(const FormState& f);
  void collect();
  void mark();
  QLabel* addMessage(QVBoxLayout* lay, const QString& field);
  QLineEdit* lineEdit(const QString& field, const QString& tip);
  /// "label [auto] [text]" for threads per block or blocks.
  std::pair<QCheckBox*, QLineEdit*> launchRow(QVBoxLayout* lay, const QString& label, const QString& field,
                                              const QString& tip, const QString& autoTip);
  void sliderToSize(int pos);
  void syncSlider();

  const Backend& m_backend;
  const Workload* m_workload = nullptr;
  FormState m_form;
  FormCheck m_check;
  bool m_loading = false;
  QWidget* m_body = nullptr;
  QMap<QString, QWidget*> m_editors;
  QMap<QString, QLabel*> m_messages;
  QMap<QString, QCheckBox*> m_implBoxes;
  QSlider* m_sizeSlider = nullptr;
  QLineEdit* m_sizeEdit = nullptr;
  QLabel* m_sizeInfo = nullptr;
  QComboBox* m_dtype = nullptr;
  QCheckBox* m_autoBlock = nullptr;
  QCheckBox* m_autoGrid = nullptr;
  QSlider* m_blockSlider = nullptr;
  QComboBox* m_blockShape = nullptr;
  QLineEdit* m_blockEdit = nullptr;
  QLineEdit* m_gridEdit = nullptr;
  QSpinBox* m_reps = nullptr;
  QSpinBox* m_warmup = nullptr;
  QLineEdit* m_seed = nullptr;  ///< a uint64: a spin box stops at 2^31 - 1
  QCheckBox* m_traceBlocks = nullptr;
  QCheckBox* m_counters = nullptr;
  std::vector<std::string> m_counterIds;  ///< the counters the box turns on (a course lesson's, else the default)
  QCheckBox* m_myKernelBox = nullptr;
  QLabel* m_cudaOffNote = nullptr;  ///< "CUDA variants are skipped on this machine", shown while they are
  std::optional<UserKernel> m_userKernel;
  bool offersMyKernel() const;
};

}  // namespace launchlab::ui
