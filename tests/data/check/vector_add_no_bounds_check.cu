// For `launchlab-cli check` (docs/EXERCISES.md): vector_add without its bounds check. With --n 1000 the auto grid
// launches 4 blocks of 256 = 1024 threads, and the last 24 read and write past the 1000-element arrays: memcheck
// reports the invalid accesses at line 7.
__global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  // BUG: no "if (i < n)"
  out[i] = x[i] + y[i];
}
