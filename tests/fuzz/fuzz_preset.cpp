// The preset reader (ui/presets.cpp, the window's only reader of files a user may be handed) on arbitrary bytes,
// and what a preset that reads becomes: its form as request text through the shared request parser. A preset
// that reads is written back and reads back the same.
#include <QByteArray>
#include <cstdint>
#include <cstdlib>

#include "launchlab/engine/request.h"
#include "models/form_state.h"
#include "models/presets.h"

using namespace launchlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
  QString error;
  const auto preset = ui::presetFromJson(bytes, &error);
  if (!preset) return 0;
  const auto again = ui::presetFromJson(ui::presetToJson(*preset));
  if (!again || !(again->form == preset->form)) std::abort();
  parseRequest(ui::requestTextOf(preset->form));
  return 0;
}
