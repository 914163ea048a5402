#pragma once
/// CUDA C++ syntax colours for the kernel editor: keywords and types, CUDA qualifiers (__global__, __shared__,
/// __device__ …), CUDA builtins (threadIdx, blockIdx, atomicAdd, __syncthreads …), numbers, strings, comments
/// (// and multi-line /* */) and preprocessor lines.
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace launchlab::ui {

class CudaHighlighter : public QSyntaxHighlighter {
  Q_OBJECT
 public:
  /// The kinds of token it colours, for tests and the legend.
  enum class Kind { Keyword, Qualifier, Builtin, Number, String, Comment, Preprocessor };
  explicit CudaHighlighter(QTextDocument* doc);
  /// The format a kind is drawn with.
  QTextCharFormat format(Kind k) const;

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    Kind kind;
  };
  std::vector<Rule> m_rules;
  QTextCharFormat m_formats[7];
};

}  // namespace launchlab::ui
