// Probe: transpose variants vs cudaMemcpy D2D at 8192^2 f32, CUDA events, median of 20 after warm-up.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
template <int TILE, int ROWS, int PAD>
__global__ void tp(const float* __restrict__ a, float* __restrict__ t, int n) {
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE; j += ROWS)
#pragma unroll
    for (int i = 0; i < TILE; i += 32) tile[threadIdx.y + j][threadIdx.x + i] = a[(size_t)(y + j) * n + x + i];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE; j += ROWS)
#pragma unroll
    for (int i = 0; i < TILE; i += 32) t[(size_t)(y + j) * n + x + i] = tile[threadIdx.x + i][threadIdx.y + j];
}
template <typename F> float timeIt(F f) {
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> v;
  for (int r = 0; r < 20; ++r) { cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); v.push_back(ms); }
  std::sort(v.begin(), v.end()); return v[10];
}
int main() {
  const int n = 8192; size_t bytes = (size_t)n * n * 4;
  float *a, *t; cudaMalloc(&a, bytes); cudaMalloc(&t, bytes); cudaMemset(a, 1, bytes);
  float cp = timeIt([&] { cudaMemcpy(t, a, bytes, cudaMemcpyDeviceToDevice); });
  double copyGBs = 2.0 * bytes / cp / 1e6;
  printf("memcpy D2D %.4f ms %.1f GB/s\n", cp, copyGBs);
  auto run = [&](const char* name, auto k, int tile, int rows) {
    dim3 g(n / tile, n / tile), b(32, rows);
    float ms = timeIt([&] { k<<<g, b>>>(a, t, n); });
    printf("%-28s %.4f ms %.1f GB/s %.3fx copy\n", name, ms, 2.0 * bytes / ms / 1e6, 2.0 * bytes / ms / 1e6 / copyGBs);
  };
  run("classic 32 pad 32x8", tp<32, 8, 1>, 32, 8);
  run("classic 32 pad 32x16", tp<32, 16, 1>, 32, 16);
  run("classic 32 pad 32x32", tp<32, 32, 1>, 32, 32);
  run("classic 32 nopad 32x8", tp<32, 8, 0>, 32, 8);
  run("wide 64 pad 32x8", tp<64, 8, 1>, 64, 8);
  run("wide 64 pad 32x16", tp<64, 16, 1>, 64, 16);
  run("wide 64 pad 32x32", tp<64, 32, 1>, 64, 32);
  cudaError_t e = cudaDeviceSynchronize(); printf("status %s\n", cudaGetErrorString(e));
}
