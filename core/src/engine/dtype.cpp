#include "launchlab/engine/dtype.h"

namespace launchlab {

std::size_t dtypeSize(DType t) {
  switch (t) {
    case DType::F32:
      return 4;
    case DType::F64:
      return 8;
    case DType::I32:
      return 4;
    case DType::I64:
      return 8;
    case DType::I16:
      return 2;
    case DType::U32:
      return 4;
    case DType::U8:
      return 1;
  }
  return 0;
}

std::string_view dtypeName(DType t) {
  switch (t) {
    case DType::F32:
      return "f32";
    case DType::F64:
      return "f64";
    case DType::I32:
      return "i32";
    case DType::I64:
      return "i64";
    case DType::I16:
      return "i16";
    case DType::U32:
      return "u32";
    case DType::U8:
      return "u8";
  }
  return "?";
}

std::string_view dtypeNumpyDescr(DType t) {
  switch (t) {
    case DType::F32:
      return "<f4";
    case DType::F64:
      return "<f8";
    case DType::I32:
      return "<i4";
    case DType::I64:
      return "<i8";
    case DType::I16:
      return "<i2";
    case DType::U32:
      return "<u4";
    case DType::U8:
      return "|u1";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view s) {
  if (s == "f32" || s == "float32" || s == "float") return DType::F32;
  if (s == "f64" || s == "float64" || s == "double") return DType::F64;
  if (s == "i32" || s == "int32" || s == "int") return DType::I32;
  if (s == "i64" || s == "int64") return DType::I64;
  if (s == "i16" || s == "int16") return DType::I16;
  if (s == "u32" || s == "uint32") return DType::U32;
  if (s == "u8" || s == "uint8") return DType::U8;
  return std::nullopt;
}

std::string unknownDTypeMessage(std::string_view s) {
  return "unknown dtype '" + std::string(s) + "' (known: f32, f64, i16, i32, i64, u32, u8)";
}

bool isFloating(DType t) { return t == DType::F32 || t == DType::F64; }

}  // namespace launchlab
