#pragma once
/// Parsing JSON that someone else may have written, with its tree bounded. Like json_value.h, it names
/// nlohmann::json: include it only from targets that link nlohmann_json themselves.
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace launchlab {

/// Parses a document of at most `maxValues` values (objects, arrays, strings, numbers, ...), counted before any tree
/// is built: a larger one is refused with BadInput ("more than N JSON values"), never built. The cap bounds the
/// tree, and with it the memory nlohmann needs to free it again (it frees a container through a stack of its size:
/// a failing allocation there aborts the program). Syntax errors throw nlohmann's parse_error, as parse does.
nlohmann::ordered_json parseJsonWithin(std::string_view text, std::size_t maxValues);

}  // namespace launchlab
