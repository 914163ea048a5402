# cmake -DIN=file -DOUT=file.cpp -DNAME=function -DORIGIN=text -P EmbedText.cmake
# Writes a C++ source defining `std::string_view launchlab::kernels::NAME()` with IN's text, and NAME##Origin().
file(READ "${IN}" _text)
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by cmake/EmbedText.cmake: do not edit.\n#include <string_view>\n\n"
  "namespace launchlab::kernels {\n\nstd::string_view ${NAME}() {\n  static const char text[] = R\"launchlab_embed(${_text})launchlab_embed\";\n"
  "  return {text, sizeof text - 1};\n}\n\nstd::string_view ${NAME}Origin() { return \"${ORIGIN}\"; }\n\n}  // namespace launchlab::kernels\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
