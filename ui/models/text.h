#pragma once
/// Text and numbers as the window writes them, one owner for each form.
#include <QLocale>
#include <QString>
#include <cstdint>
#include <string_view>

namespace launchlab::ui {

/// UTF-8 text from core (a std::string or a literal) as a QString.
inline QString q(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

/// 16777216 as "16,777,216".
inline QString countText(std::uint64_t n) { return QLocale(QLocale::English).toString(qulonglong(n)); }

}  // namespace launchlab::ui
