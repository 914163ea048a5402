// Test helper: writes SIZE_MIB MiB of zero bytes to PATH through ui::exportBytes (QSaveFile), the writer under the
// window's data exports; presets and plots go through QSaveFile the same way. tests/cli/test_atomic_kill.cpp kills
// it mid-write and checks that the old file survived. Usage: qt_write_helper PATH SIZE_MIB. Exit codes: 0 written,
// 1 the write failed, 2 bad arguments.
#include <QByteArray>
#include <QString>
#include <cstdio>

#include "helpers/zero_pages.h"
#include "plots/export.h"

int main(int argc, char** argv) {
  const std::size_t bytes = launchlab::test::sizeArgument(argc, argv, "qt_write_helper");
  if (bytes == 0) return 2;
  const char* zeros = launchlab::test::zeroPages(bytes);
  if (!zeros) return 1;
  const auto r =
      launchlab::ui::exportBytes(QString::fromLocal8Bit(argv[1]), QByteArray::fromRawData(zeros, qsizetype(bytes)));
  if (!r.ok) std::fprintf(stderr, "%s\n", qPrintable(r.message));
  return r.ok ? 0 : 1;
}
