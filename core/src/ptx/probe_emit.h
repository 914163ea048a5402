#pragma once
/// The probe put before one memory access (private to core/src/ptx). The arithmetic mirrors modelProbe
/// (ptx_model.cpp) step by step: both read the constants of launchlab/ptx_counters.h.
#include <string>

#include "ptx_parse.h"

namespace launchlab::ptx {

struct ProbeSite {
  Address address;
  int baseBits = 64;  ///< the base register's width (32: a shared-window offset in a 32-bit register)
  std::string guard;  ///< the access's predicate, "" when unguarded
  bool guardNegated = false;
  PtxSpace space = PtxSpace::Global;  ///< Global, Shared or Generic
  int widthBytes = 4;
  int record = 0;
};

/// The probe's PTX: one { } scope declaring its own registers, named with `prefix` (a name the module does not
/// use), ending with a newline.
std::string emitProbe(const ProbeSite& site, const std::string& prefix);

}  // namespace launchlab::ptx
