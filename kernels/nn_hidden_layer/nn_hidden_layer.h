#pragma once
// nn_hidden_layer (TP 3.1 assessment): a hidden layer of n neurons, normalize (greyscale / 255) -> weigh
// (* weight) -> activate (tanh written with exp), with host round trips between the three kernels, on device
// arrays, fused, and fused with pinned memory and copies overlapped with compute on several streams.
#include "common/hd_math.h"
#include "launchlab/engine/workload.h"

namespace launchlab::kernels::nn_hidden_layer {

template <typename T>
LAUNCHLAB_HD T normalize(T greyscale) {
  return greyscale / T(255);
}
template <typename T>
LAUNCHLAB_HD T weigh(T value, T weight) {
  return value * weight;
}
/// The seed's activation: (exp(v) - exp(-v)) / (exp(v) + exp(-v)), i.e. tanh, written as the course writes it.
template <typename T>
LAUNCHLAB_HD T activate(T v) {
  const T e = hd::exp(v), em = hd::exp(-v);
  return (e - em) / (e + em);
}
template <typename T>
LAUNCHLAB_HD T neuron(T greyscale, T weight) {
  return activate(weigh(normalize(greyscale), weight));
}

void cudaHostRoundTrips(ImplContext& ctx);
void cudaDeviceResident(ImplContext& ctx);
void cudaFused(ImplContext& ctx);
void cudaFusedPinnedOverlap(ImplContext& ctx);

}  // namespace launchlab::kernels::nn_hidden_layer
