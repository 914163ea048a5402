#include "cuda_highlighter.h"

#include <QStringList>

namespace launchlab::ui {

namespace {

QRegularExpression words(const QStringList& list) { return QRegularExpression("\\b(" + list.join('|') + ")\\b"); }

const QStringList kKeywords = {"auto",
                               "bool",
                               "break",
                               "case",
                               "char",
                               "const",
                               "constexpr",
                               "continue",
                               "default",
                               "do",
                               "double",
                               "else",
                               "enum",
                               "extern",
                               "false",
                               "float",
                               "for",
                               "goto",
                               "if",
                               "inline",
                               "int",
                               "long",
                               "namespace",
                               "nullptr",
                               "return",
                               "short",
                               "signed",
                               "sizeof",
                               "static",
                               "static_cast",
                               "reinterpret_cast",
                               "struct",
                               "switch",
                               "template",
                               "true",
                               "typedef",
                               "typename",
                               "union",
                               "unsigned",
                               "using",
                               "void",
                               "volatile",
                               "while",
                               "size_t",
                               "int64_t",
                               "uint64_t",
                               "int32_t",
                               "uint32_t",
                               "float2",
                               "float4",
                               "double2",
                               "int2",
                               "int4",
                               "dim3"};
const QStringList kQualifiers = {"__global__",   "__device__",        "__host__",         "__shared__",
                                 "__constant__", "__managed__",       "__restrict__",     "__forceinline__",
                                 "__noinline__", "__launch_bounds__", "__grid_constant__"};
const QStringList kBuiltins = {"threadIdx",
                               "blockIdx",
                               "blockDim",
                               "gridDim",
                               "warpSize",
                               "__syncthreads",
                               "__syncwarp",
                               "__threadfence",
                               "atomicAdd",
                               "atomicSub",
                               "atomicMax",
                               "atomicMin",
                               "atomicExch",
                               "atomicCAS",
                               "atomicInc",
                               "atomicAnd",
                               "atomicOr",
                               "__shfl_down_sync",
                               "__shfl_up_sync",
                               "__shfl_xor_sync",
                               "__shfl_sync",
                               "__ballot_sync",
                               "__popc",
                               "__ldg",
                               "sqrtf",
                               "sqrt",
                               "hypotf",
                               "fabsf",
                               "expf",
                               "logf",
                               "sinf",
                               "cosf",
                               "fmaf",
                               "min",
                               "max"};

QTextCharFormat colored(const char* hex, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(QColor(hex));
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}

}  // namespace

CudaHighlighter::CudaHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {
  m_formats[int(Kind::Keyword)] = colored("#1f4fbf", true);
  m_formats[int(Kind::Qualifier)] = colored("#9c27b0", true);
  m_formats[int(Kind::Builtin)] = colored("#00796b");
  m_formats[int(Kind::Number)] = colored("#b35900");
  m_formats[int(Kind::String)] = colored("#2e7d32");
  m_formats[int(Kind::Comment)] = colored("#6a737d", false, true);
  m_formats[int(Kind::Preprocessor)] = colored("#8a5a00");
  // Later rules win where they overlap (a keyword inside a comment is a comment).
  m_rules = {{words(kKeywords), Kind::Keyword},
             {words(kQualifiers), Kind::Qualifier},
             {words(kBuiltins), Kind::Builtin},
             {QRegularExpression(R"(\b(0[xX][0-9a-fA-F]+|\d+\.?\d*([eE][-+]?\d+)?)[fFuUlL]*\b)"), Kind::Number},
             {QRegularExpression(R"(^\s*#\s*\w+.*$)"), Kind::Preprocessor},
             {QRegularExpression(R"("(\\.|[^"\\])*"|'(\\.|[^'\\])*')"), Kind::String},
             {QRegularExpression(R"(//.*$)"), Kind::Comment}};
}

QTextCharFormat CudaHighlighter::format(Kind k) const { return m_formats[int(k)]; }

void CudaHighlighter::highlightBlock(const QString& text) {
  for (const auto& rule : m_rules)
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      const auto m = it.next();
      setFormat(int(m.capturedStart()), int(m.capturedLength()), m_formats[int(rule.kind)]);
    }
  // Block comments may span lines: state 1 = inside one at the end of the line.
  int start = previousBlockState() == 1 ? 0 : int(text.indexOf("/*"));
  setCurrentBlockState(0);
  while (start >= 0) {
    const int end = int(text.indexOf("*/", previousBlockState() == 1 && start == 0 ? 0 : start + 2));
    const int length = end < 0 ? int(text.length()) - start : end - start + 2;
    if (end < 0) setCurrentBlockState(1);
    setFormat(start, length, m_formats[int(Kind::Comment)]);
    start = end < 0 ? -1 : int(text.indexOf("/*", start + length));
  }
}

}  // namespace launchlab::ui
