#pragma once
/// Numbers as the window writes them, one owner for each form.
#include <QLocale>
#include <QString>
#include <cstdint>

namespace launchlab::ui {

/// 16777216 as "16,777,216".
inline QString countText(std::uint64_t n) { return QLocale(QLocale::English).toString(qulonglong(n)); }

}  // namespace launchlab::ui
