#pragma once
/// The pieces of PTX the instrumenting pass needs to understand (private to core/src/ptx): one statement's parts,
/// a memory instruction's space, width and kind, its address operand, and the registers a function declares.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "launchlab/files/parse.h"  // trim, for the PTX pass
#include "launchlab/ptx/ptx_instrument.h"

namespace launchlab::ptx {

/// One statement without its ';': "[label:] [@[!]pred] opcode operands".
struct Statement {
  std::size_t bodyOffset = 0;  ///< where the guard or opcode starts, past any label
  std::string guard;           ///< the predicate register, "" when unguarded
  bool guardNegated = false;
  std::string opcode;  ///< "ld.global.nc.v4.f32"
  std::string operands;
};
Statement parseStatement(std::string_view text);

/// What the opcode of a memory instruction says. `listed` is false for instructions that are not the accesses a
/// lesson counts (ld.param: the kernel's arguments; anything that is not an access at all).
struct MemOp {
  bool listed = false;
  PtxSpace space = PtxSpace::Generic;
  PtxAccessKind kind = PtxAccessKind::Load;
  int widthBytes = 0;
  std::string reason;  ///< empty: the pass can instrument it
};
MemOp classifyOpcode(std::string_view opcode);

/// The address operand [base+offset]: a register, a variable's name, or a plain address.
struct Address {
  enum class Base { Register, Symbol, None } base = Base::None;
  std::string name;
  std::int64_t offset = 0;
};
/// The first [...] operand, or nullopt with `why` set.
std::optional<Address> parseAddress(std::string_view operands, std::string& why);

/// The registers declared in a function (.reg .b64 %rd<23>; .reg .u32 %a, %b;): their widths in bits.
class RegisterTable {
 public:
  void declare(std::string_view declaration);  ///< the statement after ".reg"
  /// The width in bits of register `name` (1: a predicate; 0 when it is not declared here).
  int bits(std::string_view name) const;
  void clear() { *this = RegisterTable{}; }

 private:
  std::map<std::string, std::pair<int, long>> m_ranges;  ///< prefix → (bits, count) of %rd<23>
  std::map<std::string, int> m_names;                    ///< plain names → bits (predicates: 1)
};

/// Bits of a PTX type name without its dot ("b64" → 64, "pred" → 1, "f16x2" → 32); 0 when not a type.
int typeBits(std::string_view type);

/// The name in ".visible .entry k(" or ".func (.param .b32 r) f(": the word before the parameter list.
std::string functionName(std::string_view header);

}  // namespace launchlab::ptx
