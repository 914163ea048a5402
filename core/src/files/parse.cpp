#include "launchlab/files/parse.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace launchlab {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

namespace {
bool fail(std::string* error, std::string msg) {
  if (error) *error = std::move(msg);
  return false;
}
}  // namespace

std::optional<double> parseDouble(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> parseInteger(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  long long v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parseUnsigned(std::string_view text) {
  text = trim(text);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) return std::nullopt;
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parseSize(std::string_view raw, std::string* error) {
  std::string_view text = trim(raw);
  const std::string quoted = "'" + std::string(raw) + "'";
  if (text.empty()) {
    fail(error, "empty size");
    return std::nullopt;
  }
  if (text.front() == '-') {
    fail(error, "size " + quoted + " must be positive");
    return std::nullopt;
  }
  // 2^k
  if (auto caret = text.find('^'); caret != std::string_view::npos) {
    auto base = parseInteger(text.substr(0, caret));
    auto exp = parseInteger(text.substr(caret + 1));
    if (!base || !exp || *base < 1 || *exp < 0) {
      fail(error, "malformed size " + quoted + " (expected e.g. 2^24)");
      return std::nullopt;
    }
    // Whole numbers all the way (a double has 53 bits: 3^39 lost its last digits), stopping above 9e18.
    constexpr std::uint64_t kLargest = 9000000000000000000ull;
    const auto b = static_cast<std::uint64_t>(*base);
    std::uint64_t r = 1;
    for (long long k = 0; b > 1 && k < *exp; ++k) {  // at most 63 steps before it passes kLargest
      if (r > kLargest / b) {
        fail(error, "size " + quoted + " is too large");
        return std::nullopt;
      }
      r *= b;
    }
    return r;
  }
  // Suffixes: K M G (powers of 10), Ki Mi Gi (powers of 2).
  long double mult = 1;
  std::string_view num = text;
  auto endsWith = [&](std::string_view suf) {
    return num.size() > suf.size() && num.substr(num.size() - suf.size()) == suf;
  };
  struct Suf {
    std::string_view s;
    long double m;
  };
  static constexpr Suf sufs[] = {{"Ki", 1024.0L}, {"Mi", 1048576.0L}, {"Gi", 1073741824.0L}, {"k", 1e3L}, {"K", 1e3L},
                                 {"M", 1e6L},     {"G", 1e9L}};
  for (const auto& s : sufs) {
    if (endsWith(s.s)) {
      mult = s.m;
      num.remove_suffix(s.s.size());
      break;
    }
  }
  auto v = parseDouble(num);
  if (!v) {
    fail(error, "malformed size " + quoted + " (examples: 1000, 1M, 16Mi, 2^24)");
    return std::nullopt;
  }
  long double total = static_cast<long double>(*v) * mult;
  if (total < 1) {
    fail(error, "size " + quoted + " must be at least 1");
    return std::nullopt;
  }
  if (total > 9.0e18L) {
    fail(error, "size " + quoted + " is too large");
    return std::nullopt;
  }
  if (total != std::floor(total)) {
    fail(error, "size " + quoted + " is not a whole number of elements");
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(total);
}

std::string formatSize(std::uint64_t n) {
  if (n != 0 && (n & (n - 1)) == 0 && n >= 1024) {
    int k = 0;
    while ((std::uint64_t(1) << k) != n) ++k;
    std::string s;
    if (k >= 30)
      s = std::to_string(n >> 30) + "Gi";
    else if (k >= 20)
      s = std::to_string(n >> 20) + "Mi";
    else
      s = std::to_string(n >> 10) + "Ki";
    return s + " (2^" + std::to_string(k) + ")";
  }
  if (n >= 1000000000 && n % 1000000000 == 0) return std::to_string(n / 1000000000) + "G";
  if (n >= 1000000 && n % 1000000 == 0) return std::to_string(n / 1000000) + "M";
  if (n >= 1000 && n % 1000 == 0) return std::to_string(n / 1000) + "K";
  return std::to_string(n);
}

}  // namespace launchlab
