#pragma once
/// Syntax colours for the kernel editor, in the file's language. CUDA C++: keywords and types, CUDA qualifiers
/// (__global__, __shared__, __device__ …), CUDA builtins (threadIdx, blockIdx, atomicAdd, __syncthreads …), numbers,
/// strings, comments (// and multi-line /* */) and preprocessor lines. Python (a Numba kernel): keywords,
/// decorators (@cuda.jit) as qualifiers, Numba's CUDA API (cuda.grid, cuda.atomic.add, cuda.shared.array …) and the
/// builtins a kernel calls as builtins, numbers, strings (also multi-line triple-quoted ones) and # comments.
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

#include "editor/exercise_store.h"

namespace launchlab::ui {

class CodeHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  /// The kinds of token it colours, for tests and the legend.
  enum class Kind { Keyword, Qualifier, Builtin, Number, String, Comment, Preprocessor };
  explicit CodeHighlighter(QTextDocument* doc, KernelLanguage language = KernelLanguage::Cuda);
  /// Colours the document again in `language`.
  void setLanguage(KernelLanguage language);
  KernelLanguage language() const { return m_language; }
  /// The format a kind is drawn with.
  QTextCharFormat format(Kind k) const;

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    Kind kind;
  };
  /// A token that may span lines (a /* */ comment, a """ string): block state i + 1 while inside span i.
  struct Span {
    QString open, close;
    Kind kind;
  };
  KernelLanguage m_language = KernelLanguage::Cuda;
  std::vector<Rule> m_rules;
  std::vector<Span> m_spans;
  QTextCharFormat m_formats[7];
};

}  // namespace launchlab::ui
