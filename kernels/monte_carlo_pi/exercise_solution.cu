// Reference solution of exercise monte_carlo_pi (exercise.cu beside it states the contract).
__device__ float uniform01(unsigned long long seed, unsigned long long counter) {
  unsigned long long z = seed * 0x9E3779B97F4A7C15ull + counter + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return float(z >> 40) * (1.0f / 16777216.0f);
}

__global__ void monte_carlo_pi(unsigned long long seed, unsigned long long n, unsigned long long* hits) {
  unsigned long long count = 0;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float x = uniform01(seed, 2 * i), y = uniform01(seed, 2 * i + 1);
    count += (x * x + y * y <= 1.0f) ? 1 : 0;
  }
  for (int offset = 16; offset > 0; offset /= 2) count += __shfl_down_sync(0xffffffffu, count, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(hits, count);
}
