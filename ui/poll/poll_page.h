#pragma once
// The one page a student's phone or laptop opens: the question and its input, self-contained (no external script,
// font or network beyond this server), every string of the question HTML-escaped and every value the script reads
// JSON-encoded inside a non-executable block.
#include <QByteArray>

#include "poll/poll_tally.h"

namespace launchlab::ui::poll {

/// The page for poll `code` (the answer is posted to /<code>/answer). Under 30 KB for any question the course holds
/// (the question's strings are the only variable part).
QByteArray pageHtml(const Question& q, const QString& code);

/// `s` with &, <, >, " and ' replaced by their entities: safe in HTML text and in quoted attributes.
QString htmlEscaped(const QString& s);

}  // namespace launchlab::ui::poll
