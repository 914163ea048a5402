#pragma once
/// Element types a workload can run on, with their sizes and names.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace launchlab {

enum class DType {
  F32,
  F64,
  I32,
  U32,
  U8,
  I64,
  I16
};  ///< I64: NumPy's default integer; I16: the seed's int16 waveform

/// Bytes per element.
std::size_t dtypeSize(DType t);
/// Short name used by the CLI, JSON and GUI: "f32", "f64", "i16", "i32", "i64", "u32", "u8".
std::string_view dtypeName(DType t);
/// NumPy descriptor, e.g. "<f4".
std::string_view dtypeNumpyDescr(DType t);
/// Parses "f32"/"float32"/"f64"/"float64"/"i16"/"int16"/"i32"/"int32"/"i64"/"int64"/"u32"/"u8"; nullopt when unknown.
std::optional<DType> parseDType(std::string_view s);
/// The one message for a dtype parseDType does not know: "unknown dtype 'f16' (known: f32, f64, i16, i32, i64, u32,
/// u8)".
std::string unknownDTypeMessage(std::string_view s);
bool isFloating(DType t);

template <typename T>
constexpr DType dtypeOf();
template <>
constexpr DType dtypeOf<float>() {
  return DType::F32;
}
template <>
constexpr DType dtypeOf<double>() {
  return DType::F64;
}
template <>
constexpr DType dtypeOf<std::int32_t>() {
  return DType::I32;
}
template <>
constexpr DType dtypeOf<std::uint32_t>() {
  return DType::U32;
}
template <>
constexpr DType dtypeOf<std::uint8_t>() {
  return DType::U8;
}
template <>
constexpr DType dtypeOf<std::int64_t>() {
  return DType::I64;
}
template <>
constexpr DType dtypeOf<std::int16_t>() {
  return DType::I16;
}

/// Calls f(T{}) with T the C++ type of `t` (float, double, int32_t, uint32_t, uint8_t, int64_t, int16_t).
template <typename F>
decltype(auto) visitDType(DType t, F&& f) {
  switch (t) {
    case DType::F32:
      return f(float{});
    case DType::F64:
      return f(double{});
    case DType::I32:
      return f(std::int32_t{});
    case DType::U32:
      return f(std::uint32_t{});
    case DType::I64:
      return f(std::int64_t{});
    case DType::I16:
      return f(std::int16_t{});
    case DType::U8:
      break;
  }
  return f(std::uint8_t{});
}

/// Calls f(T{}) for the first of Ts whose dtype is `t`; throws std::invalid_argument when none is.
/// Use it to instantiate kernels only for the dtypes a workload supports.
template <typename... Ts, typename F>
decltype(auto) visitDTypeAmong(DType t, F&& f) {
  using First = std::tuple_element_t<0, std::tuple<Ts...>>;
  using R = decltype(f(First{}));
  if constexpr (std::is_void_v<R>) {
    bool done = ((dtypeOf<Ts>() == t ? (f(Ts{}), true) : false) || ...);
    if (!done)
      throw std::invalid_argument(std::string("dtype ") + std::string(dtypeName(t)) + " is not supported here");
  } else {
    std::optional<R> r;
    ((dtypeOf<Ts>() == t ? (r.emplace(f(Ts{})), true) : false) || ...);
    if (!r) throw std::invalid_argument(std::string("dtype ") + std::string(dtypeName(t)) + " is not supported here");
    return *r;
  }
}

}  // namespace launchlab
