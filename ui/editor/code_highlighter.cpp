#include "editor/code_highlighter.h"

#include <QStringList>
#include <tuple>
#include <utility>

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

const QStringList kPythonKeywords = {
    "and",      "as",      "assert", "break", "class",  "continue", "def",    "del", "elif",  "else",   "except",
    "False",    "finally", "for",    "from",  "global", "if",       "import", "in",  "is",    "lambda", "None",
    "nonlocal", "not",     "or",     "pass",  "raise",  "return",   "True",   "try", "while", "with",   "yield"};
/// What a Numba kernel calls besides cuda.*: Python's builtins, math's functions and Numba's types.
const QStringList kPythonBuiltins = {"range",   "len",     "min",   "max",   "abs",    "int",    "float",
                                     "hypot",   "sqrt",    "exp",   "log",   "sin",    "cos",    "floor",
                                     "float32", "float64", "int32", "int64", "uint32", "uint64", "numba_types",
                                     "types",   "np",      "numpy", "math",  "numba"};

/// A one-line "..." or '...' literal, in both languages.
const QString kStrings = R"("(\\.|[^"\\])*"|'(\\.|[^'\\])*')";

QTextCharFormat colored(const char* hex, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(QColor(hex));
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}

}  // namespace

CodeHighlighter::CodeHighlighter(QTextDocument* doc, KernelLanguage language) : QSyntaxHighlighter(doc) {
  m_formats[int(Kind::Keyword)] = colored("#1f4fbf", true);
  m_formats[int(Kind::Qualifier)] = colored("#9c27b0", true);
  m_formats[int(Kind::Builtin)] = colored("#00796b");
  m_formats[int(Kind::Number)] = colored("#b35900");
  m_formats[int(Kind::String)] = colored("#2e7d32");
  m_formats[int(Kind::Comment)] = colored("#6a737d", false, true);
  m_formats[int(Kind::Preprocessor)] = colored("#8a5a00");
  setLanguage(language);
}

void CodeHighlighter::setLanguage(KernelLanguage language) {
  m_language = language;
  // Later rules win where they overlap (a keyword inside a comment is a comment).
  if (language == KernelLanguage::Python) {
    m_rules = {{words(kPythonKeywords), Kind::Keyword},
               {words(kPythonBuiltins), Kind::Builtin},
               {QRegularExpression(R"(\bcuda(\.\w+)*)"), Kind::Builtin},
               {QRegularExpression(R"(^\s*@[\w.]+)"), Kind::Qualifier},
               {QRegularExpression(R"(\b(0[xX][0-9a-fA-F]+|\d+\.?\d*([eE][-+]?\d+)?)j?\b)"), Kind::Number},
               {QRegularExpression(kStrings), Kind::String},
               {QRegularExpression(R"(#.*$)"), Kind::Comment}};
    m_spans = {{"\"\"\"", "\"\"\"", Kind::String}, {"'''", "'''", Kind::String}};
  } else {
    m_rules = {{words(kKeywords), Kind::Keyword},
               {words(kQualifiers), Kind::Qualifier},
               {words(kBuiltins), Kind::Builtin},
               {QRegularExpression(R"(\b(0[xX][0-9a-fA-F]+|\d+\.?\d*([eE][-+]?\d+)?)[fFuUlL]*\b)"), Kind::Number},
               {QRegularExpression(R"(^\s*#\s*\w+.*$)"), Kind::Preprocessor},
               {QRegularExpression(kStrings), Kind::String},
               {QRegularExpression(R"(//.*$)"), Kind::Comment}};
    m_spans = {{"/*", "*/", Kind::Comment}};
  }
  rehighlight();
}

QTextCharFormat CodeHighlighter::format(Kind k) const { return m_formats[int(k)]; }

void CodeHighlighter::highlightBlock(const QString& text) {
  for (const auto& rule : m_rules)
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      const auto m = it.next();
      setFormat(int(m.capturedStart()), int(m.capturedLength()), m_formats[int(rule.kind)]);
    }
  // Spans may cover several lines: block state i + 1 = inside span i at the end of the line.
  int inside = previousBlockState() - 1;
  int from = 0;
  setCurrentBlockState(0);
  while (from <= int(text.length())) {
    int start = from, body = from;
    if (inside < 0 || inside >= int(m_spans.size())) {
      start = -1;
      for (int i = 0; i < int(m_spans.size()); ++i) {
        const int at = int(text.indexOf(m_spans[std::size_t(i)].open, from));
        if (at >= 0 && (start < 0 || at < start)) std::tie(start, inside) = std::pair(at, i);
      }
      if (start < 0) return;
      body = start + int(m_spans[std::size_t(inside)].open.length());
    }
    const Span& span = m_spans[std::size_t(inside)];
    const int end = int(text.indexOf(span.close, body));
    if (end < 0) {
      setFormat(start, int(text.length()) - start, m_formats[int(span.kind)]);
      setCurrentBlockState(inside + 1);
      return;
    }
    setFormat(start, end + int(span.close.length()) - start, m_formats[int(span.kind)]);
    from = end + int(span.close.length());
    inside = -1;
  }
}

}  // namespace launchlab::ui
