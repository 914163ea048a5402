#include "launchlab/explorer/run_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "launchlab/files/json_value.h"

namespace launchlab {

namespace {

const ImplResult* findImpl(const RunResult& r, const std::string& id) {
  for (const auto& i : r.impls)
    if (i.implId == id) return &i;
  return nullptr;
}

const HostArray* findOutput(const ImplResult* i, const std::string& name) {
  if (!i) return nullptr;
  for (const auto& o : i->outputs)
    if (o.name() == name) return &o;
  return nullptr;
}

void fillSide(const ImplResult& i, bool& in, Status& status, double& compute, double& total) {
  in = true;
  status = i.status;
  compute = i.status == Status::Ok ? i.computeMedianMs() : 0;
  total = i.status == Status::Ok ? i.totalMedianMs() : 0;
}

OutputComparison compareArrays(const std::string& impl, const std::string& name, const HostArray* a,
                               const HostArray* b) {
  OutputComparison c{impl, name};
  if (!a || !b) {
    c.note = std::string("not kept in ") + (!a && !b ? "A or B" : !a ? "A" : "B");
    return c;
  }
  if (a->dtype() != b->dtype() || a->shape() != b->shape()) {
    c.note = "different dtype or shape";
    return c;
  }
  c.compared = true;
  for (std::size_t k = 0; k < a->size(); ++k) {
    const double x = a->at(k), y = b->at(k);
    if (x == y || (std::isnan(x) && std::isnan(y))) continue;
    ++c.differing;
    c.maxAbsDiff = std::isnan(x) || std::isnan(y) ? NAN
                   : std::isnan(c.maxAbsDiff)     ? c.maxAbsDiff
                                                  : std::max(c.maxAbsDiff, std::abs(x - y));
  }
  char buf[160];
  if (c.differing == 0)
    std::snprintf(buf, sizeof buf, "identical (%zu elements)", a->size());
  else
    std::snprintf(buf, sizeof buf, "%zu of %zu elements differ, max |A - B| = %.3g", c.differing, a->size(),
                  c.maxAbsDiff);
  c.note = buf;
  return c;
}

}  // namespace

std::vector<TimingComparison> compareTimings(const RunResult& a, const RunResult& b) {
  std::vector<TimingComparison> rows;
  for (const auto* run : {&a, &b})
    for (const auto& i : run->impls)
      if (std::none_of(rows.begin(), rows.end(), [&](const TimingComparison& t) { return t.implId == i.implId; }))
        rows.push_back({i.implId, i.title});
  for (auto& t : rows) {
    if (const ImplResult* i = findImpl(a, t.implId)) fillSide(*i, t.inA, t.statusA, t.computeA, t.totalA);
    if (const ImplResult* i = findImpl(b, t.implId)) fillSide(*i, t.inB, t.statusB, t.computeB, t.totalB);
    t.ratio = t.totalA > 0 && t.totalB > 0 ? t.totalB / t.totalA : 0;
  }
  return rows;
}

std::vector<OutputComparison> compareOutputs(const RunResult& a, const RunResult& b) {
  std::vector<OutputComparison> out;
  for (const auto& ia : a.impls) {
    const ImplResult* ib = findImpl(b, ia.implId);
    if (!ib) continue;
    std::vector<std::string> names;
    for (const auto* i : {&ia, ib})
      for (const auto& o : i->outputs)
        if (std::find(names.begin(), names.end(), o.name()) == names.end()) names.push_back(o.name());
    for (const auto& n : names) out.push_back(compareArrays(ia.implId, n, findOutput(&ia, n), findOutput(ib, n)));
  }
  return out;
}

std::size_t keptArrayBytes(const RunResult& r) {
  std::size_t bytes = 0;
  for (const auto& a : r.inputs) bytes += a.bytes();
  for (const auto& i : r.impls)
    for (const auto& o : i.outputs) bytes += o.bytes();
  return bytes;
}

RunResult withoutArrays(const RunResult& r) {
  const nlohmann::ordered_json j = r;
  return j.get<RunResult>();
}

}  // namespace launchlab
