#pragma once
/// Parsing of user-typed numbers shared by the CLI and the GUI.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace launchlab {

/// `s` without the whitespace at either end.
std::string_view trim(std::string_view s);

/// Parses an element count: "1000", "1M" (10^6), "16Mi" (2^24), "2^24", "1e6", "4K", "1G".
/// Returns nullopt (and a reason in `error`) for malformed text, zero, negative values or overflow.
std::optional<std::uint64_t> parseSize(std::string_view text, std::string* error = nullptr);
/// Formats a count compactly for display: 16777216 -> "16Mi (2^24)", 1000000 -> "1M".
std::string formatSize(std::uint64_t n);
/// Strict double / integer parsing of the whole string (no trailing characters).
std::optional<double> parseDouble(std::string_view text);
std::optional<long long> parseInteger(std::string_view text);
/// A whole number in [0, 2^64 - 1] (seeds: the whole range the generators take); no sign, no fraction.
std::optional<std::uint64_t> parseUnsigned(std::string_view text);

}  // namespace launchlab
