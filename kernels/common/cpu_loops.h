#pragma once
/// The loops of the CPU implementations: the same body run by one core (cpu-serial, the reference) or by all
/// cores with OpenMP (cpu-parallel), so the two differ only in how the iterations are shared out.
///
/// An element-wise workload writes only its formula:
///   template <bool Parallel> void runCpu(ImplContext& ctx) {
///     runCpuMap<Parallel, float, double>(ctx, [](auto a, auto b) { return std::hypot(a, b); });
///   }
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "common/cpu_team.h"
#include "common/impl_helpers.h"

namespace launchlab::kernels {

/// f(i) for every i in [0, n): serially, or split into static chunks over the cores (cpuTeam: a grain of
/// elements each at least) with SIMD inside each chunk (element-wise bodies: no iteration depends on another).
template <bool Parallel, typename F>
void forEachIndex(std::size_t n, F&& f) {
  if constexpr (Parallel) {
#pragma omp parallel for simd schedule(static) num_threads(cpuTeam(n))
    for (std::size_t i = 0; i < n; ++i) f(i);
  } else {
    for (std::size_t i = 0; i < n; ++i) f(i);
  }
}

/// f(r) for every row r in [0, rows): serially, or rows split into static chunks over the cores (row bodies
/// have inner loops of their own, so no SIMD across rows). `rowItems`: a row's work in elements (cpuTeam); by
/// default a row counts as a grain.
template <bool Parallel, typename F>
void forEachRow(std::size_t rows, F&& f, std::size_t rowItems = kCpuGrain) {
  if constexpr (Parallel) {
#pragma omp parallel for schedule(static) num_threads(cpuTeam(rows* rowItems))
    for (std::size_t r = 0; r < rows; ++r) f(r);
  } else {
    for (std::size_t r = 0; r < rows; ++r) f(r);
  }
}

/// What one iteration of runCpuLoop handles: an element (forEachIndex) or a row of a matrix (forEachRow).
enum class LoopItem { Element, Row };

/// The CPU loop of an implementation. T is the run's dtype among Ts; makeBody(T{}) returns the body f(i) of one
/// item, typically capturing pointers into ctx's arrays and the run's constants in T. Each timed repetition
/// (runCpuTimed) runs f for every i in [0, setup.n): on one core, or on all cores when Parallel.
template <bool Parallel, typename... Ts, typename MakeBody>
void runCpuLoop(ImplContext& ctx, MakeBody&& makeBody, LoopItem item = LoopItem::Element) {
  visitDTypeAmong<Ts...>(ctx.setup.dtype, [&](auto tag) {
    const auto body = makeBody(tag);
    const auto n = static_cast<std::size_t>(ctx.setup.n);
    runCpuTimed(ctx, [&] {
      if (item == LoopItem::Row)
        forEachRow<Parallel>(n, body);
      else
        forEachIndex<Parallel>(n, body);
    });
  });
}

namespace detail {
template <typename T, std::size_t>
using Repeat = T;
template <typename F, typename T, std::size_t... I>
constexpr bool takes(std::index_sequence<I...>) {
  return std::is_invocable_v<const F&, Repeat<T, I>...>;
}
/// How many values of T a formula takes (1 to 8).
template <typename F, typename T, std::size_t K = 1>
constexpr std::size_t arity() {
  static_assert(K <= 8, "a formula takes 1 to 8 values of the run's dtype");
  if constexpr (takes<F, T>(std::make_index_sequence<K>{}))
    return K;
  else
    return arity<F, T, K + 1>();
}
template <typename T, typename F, std::size_t... I>
auto elementBody(ImplContext& ctx, const F& formula, std::index_sequence<I...>) {
  if (ctx.inputs.size() != sizeof...(I) || ctx.outputs.size() != 1)
    throw std::logic_error("runCpuMap: a formula of " + std::to_string(sizeof...(I)) + " values for " +
                           std::to_string(ctx.inputs.size()) + " inputs and " + std::to_string(ctx.outputs.size()) +
                           " outputs");
  const std::array<const T*, sizeof...(I)> in = {ctx.inputs[I].view<T>().data()...};
  T* out = ctx.outputs[0].view<T>().data();
  return [=](std::size_t i) { out[i] = formula(in[I][i]...); };
}
}  // namespace detail

/// An element-wise implementation: out[i] = formula(in_0[i], …, in_k[i]) over the workload's k inputs and its one
/// output, through runCpuLoop. The formula is generic over T (`auto` parameters); constants it needs are captured
/// (as double, converted with T(c) inside: the same value as converting once).
template <bool Parallel, typename... Ts, typename Formula>
void runCpuMap(ImplContext& ctx, const Formula& formula) {
  runCpuLoop<Parallel, Ts...>(ctx, [&](auto tag) {
    using T = decltype(tag);
    return detail::elementBody<T>(ctx, formula, std::make_index_sequence<detail::arity<Formula, T>()>{});
  });
}

}  // namespace launchlab::kernels
