// The device probe (probe_emit.h). Each step names the line of modelProbe (ptx_model.cpp) it mirrors.
#include "probe_emit.h"

#include "launchlab/ptx/ptx_counters.h"

namespace launchlab::ptx {

namespace {

/// Builds the probe's lines: "\t" + instruction + ";\n", with the register names spelt from the prefix.
class Emitter {
 public:
  explicit Emitter(std::string prefix) : m_p(std::move(prefix)) {}
  std::string r(int i) const { return m_p + "r" + std::to_string(i); }  // .b32
  std::string d(int i) const { return m_p + "d" + std::to_string(i); }  // .b64
  std::string q(int i) const { return m_p + "q" + std::to_string(i); }  // .pred
  void line(const std::string& s) { m_out += "\t" + s + ";\n"; }
  void raw(const std::string& s) { m_out += s; }
  std::string take() { return std::move(m_out); }

 private:
  std::string m_p;
  std::string m_out;
};

// Registers: r0 active mask, r1 lanes taking part, r2 %lanemask_lt, d0 the address, q0 this lane takes part,
// q1 this lane adds to the record; the sections use the rest.
void emitAddress(Emitter& e, const ProbeSite& s) {
  const auto off = std::to_string(s.address.offset);
  switch (s.address.base) {
    case Address::Base::Register:
      if (s.baseBits == 32)
        e.line("cvt.u64.u32 " + e.d(0) + ", " + s.address.name);
      else
        e.line("mov.b64 " + e.d(0) + ", " + s.address.name);
      break;
    case Address::Base::Symbol:
      e.line("mov.u64 " + e.d(0) + ", " + s.address.name);
      break;
    case Address::Base::None:
      e.line("mov.u64 " + e.d(0) + ", 0");
      break;
  }
  if (s.address.offset != 0) e.line("add.s64 " + e.d(0) + ", " + e.d(0) + ", " + off);
}

// modelProbe: "takesPart" and the leader (the lowest lane taking part adds to the record).
void emitParticipation(Emitter& e, const ProbeSite& s) {
  e.line("activemask.b32 " + e.r(0));
  if (s.guard.empty())
    e.line("setp.eq.b32 " + e.q(0) + ", " + e.r(0) + ", " + e.r(0));
  else
    e.line(std::string(s.guardNegated ? "not.pred " : "mov.pred ") + e.q(0) + ", " + s.guard);
  e.line("vote.sync.ballot.b32 " + e.r(1) + ", " + e.q(0) + ", " + e.r(0));
  e.line("mov.u32 " + e.r(2) + ", %lanemask_lt");
  e.line("and.b32 " + e.r(3) + ", " + e.r(1) + ", " + e.r(2));
  e.line("setp.eq.and.b32 " + e.q(1) + ", " + e.r(3) + ", 0, " + e.q(0));
}

/// The lanes of this section: q(p) = takes part and (generic) the address is in `space`.
void emitSectionLanes(Emitter& e, const ProbeSite& s, int p, const char* space) {
  if (s.space == PtxSpace::Generic) {
    e.line(std::string("isspacep.") + space + " " + e.q(p) + ", " + e.d(0));
    e.line("and.pred " + e.q(p) + ", " + e.q(p) + ", " + e.q(0));
  } else {
    e.line("mov.pred " + e.q(p) + ", " + e.q(0));
  }
}

/// Lanes whose `key` (b64 register) is the lowest lane of its group among the section's lanes `mask`, guarded by
/// `lanes`: q(leader) set; returns nothing, r(scratch), r(scratch+1) used.
void emitDistinctLeaders(Emitter& e, const std::string& key, const std::string& mask, int lanes, int leader,
                         int scratch, const char* type) {
  e.line("@" + e.q(lanes) + " match.any.sync." + type + " " + e.r(scratch) + ", " + key + ", " + mask);
  e.line("and.b32 " + e.r(scratch + 1) + ", " + e.r(scratch) + ", " + e.r(2));
  e.line("setp.eq.and.b32 " + e.q(leader) + ", " + e.r(scratch + 1) + ", 0, " + e.q(lanes));
}

// modelProbe, global: distinct sectors addr >> kSectorShift among the global lanes. r4 mask, r8 sectors,
// r9 request (0/1).
void emitGlobal(Emitter& e, const ProbeSite& s) {
  emitSectionLanes(e, s, 2, "global");
  e.line("vote.sync.ballot.b32 " + e.r(4) + ", " + e.q(2) + ", " + e.r(0));
  e.line("shr.b64 " + e.d(1) + ", " + e.d(0) + ", " + std::to_string(kSectorShift));
  emitDistinctLeaders(e, e.d(1), e.r(4), 2, 3, 5, "b64");
  e.line("vote.sync.ballot.b32 " + e.r(7) + ", " + e.q(3) + ", " + e.r(0));
  e.line("popc.b32 " + e.r(8) + ", " + e.r(7));
  e.line("setp.ne.b32 " + e.q(4) + ", " + e.r(4) + ", 0");
  e.line("selp.u32 " + e.r(9) + ", 1, 0, " + e.q(4));
}

// modelProbe, shared: units addr >> unitShift, slots unit & (slotCount − 1); r10 mask, r14 distinct units,
// r18 wavefronts (the most units in one slot, found bit by bit with votes), r20 ideal, r21 request (0/1).
void emitShared(Emitter& e, const ProbeSite& s) {
  const int w = s.widthBytes;
  emitSectionLanes(e, s, 5, "shared");
  e.line("vote.sync.ballot.b32 " + e.r(10) + ", " + e.q(5) + ", " + e.r(0));
  e.line("shr.b64 " + e.d(2) + ", " + e.d(0) + ", " + std::to_string(unitShift(w)));
  emitDistinctLeaders(e, e.d(2), e.r(10), 5, 6, 11, "b64");
  e.line("vote.sync.ballot.b32 " + e.r(13) + ", " + e.q(6) + ", " + e.r(0));
  e.line("popc.b32 " + e.r(14) + ", " + e.r(13));
  e.line("cvt.u32.u64 " + e.r(15) + ", " + e.d(2));
  e.line("and.b32 " + e.r(15) + ", " + e.r(15) + ", " + std::to_string(slotCount(w) - 1));
  e.line("@" + e.q(6) + " match.any.sync.b32 " + e.r(16) + ", " + e.r(15) + ", " + e.r(13));
  e.line("mov.b32 " + e.r(17) + ", 0");
  e.line("@" + e.q(6) + " popc.b32 " + e.r(17) + ", " + e.r(16));
  e.line("mov.b32 " + e.r(18) + ", 0");
  for (int bit = kWarpLanes; bit >= 1; bit /= 2) {
    e.line("or.b32 " + e.r(19) + ", " + e.r(18) + ", " + std::to_string(bit));
    e.line("setp.ge.u32 " + e.q(7) + ", " + e.r(17) + ", " + e.r(19));
    e.line("vote.sync.any.pred " + e.q(8) + ", " + e.q(7) + ", " + e.r(0));
    e.line("selp.b32 " + e.r(18) + ", " + e.r(19) + ", " + e.r(18) + ", " + e.q(8));
  }
  e.line("add.u32 " + e.r(20) + ", " + e.r(14) + ", " + std::to_string(slotCount(w) - 1));
  e.line("shr.u32 " + e.r(20) + ", " + e.r(20) + ", " + std::to_string(log2Slots(w)));
  e.line("setp.ne.b32 " + e.q(9) + ", " + e.r(10) + ", 0");
  e.line("selp.u32 " + e.r(21) + ", 1, 0, " + e.q(9));
}

/// The leader adds b32 register `value` to record field `field`.
void emitAdd(Emitter& e, RecordField field, const std::string& value) {
  e.line("cvt.u64.u32 " + e.d(4) + ", " + value);
  e.line("@" + e.q(1) + " red.global.add.u64 [" + e.d(3) + "+" + std::to_string(8 * field) + "], " + e.d(4));
}

void emitRecord(Emitter& e, const ProbeSite& s) {
  const bool global = s.space != PtxSpace::Shared, shared = s.space != PtxSpace::Global;
  e.line("@" + e.q(1) + " ld.global.u64 " + e.d(3) + ", [" + std::string(kCountersSymbol) + "]");
  e.line("@" + e.q(1) + " cvta.to.global.u64 " + e.d(3) + ", " + e.d(3));
  e.line("@" + e.q(1) + " add.u64 " + e.d(3) + ", " + e.d(3) + ", " + std::to_string(s.record * kRecordBytes));
  e.line("mov.b32 " + e.r(22) + ", 1");
  emitAdd(e, kExecutions, e.r(22));
  e.line("popc.b32 " + e.r(22) + ", " + e.r(1));
  emitAdd(e, kLanes, e.r(22));
  if (global) emitAdd(e, kGlobalRequests, e.r(9)), emitAdd(e, kSectors, e.r(8));
  if (shared) {
    emitAdd(e, kSharedRequests, e.r(21));
    emitAdd(e, kWavefronts, e.r(18));
    emitAdd(e, kIdealWavefronts, e.r(20));
  }
  if (s.space == PtxSpace::Generic) {  // lanes neither global nor shared
    e.line("or.b32 " + e.r(23) + ", " + e.r(4) + ", " + e.r(10));
    e.line("not.b32 " + e.r(23) + ", " + e.r(23));
    e.line("and.b32 " + e.r(23) + ", " + e.r(23) + ", " + e.r(1));
    e.line("popc.b32 " + e.r(23) + ", " + e.r(23));
    emitAdd(e, kOtherLanes, e.r(23));
  }
}

}  // namespace

std::string emitProbe(const ProbeSite& s, const std::string& prefix) {
  Emitter e(prefix);
  e.raw("\t{ // launchlab access probe " + std::to_string(s.record) + "\n");
  e.line(".reg .pred " + prefix + "q<10>");
  e.line(".reg .b32 " + prefix + "r<24>");
  e.line(".reg .b64 " + prefix + "d<5>");
  emitAddress(e, s);
  emitParticipation(e, s);
  if (s.space != PtxSpace::Shared) emitGlobal(e, s);
  if (s.space != PtxSpace::Global) emitShared(e, s);
  emitRecord(e, s);
  e.raw("\t}\n");
  return e.take();
}

}  // namespace launchlab::ptx
