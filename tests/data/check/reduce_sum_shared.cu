// For `launchlab-cli check` (docs/EXERCISES.md): a shared-memory tree sum per block, one atomicAdd per block (run it
// with --block 256); memcheck and racecheck are clean. Without line 14's barrier (tests/gpu/test_check_sanitizer.cpp
// deletes it) a thread reads partial[t + s] while its owner may still be writing it: racecheck reports line 13.
__global__ void reduce_sum(const double* x, unsigned long long n, double* sum) {
  __shared__ double partial[256];
  const unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  double acc = 0;
  for (unsigned long long i = first; i < n; i += stride) acc += x[i];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();  // every step reads what the previous one wrote
  }
  if (threadIdx.x == 0) atomicAdd(sum, partial[0]);
}
