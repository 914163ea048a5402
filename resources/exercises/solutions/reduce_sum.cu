// Reference solution of exercise reduce_sum (resources/exercises/reduce_sum.cu states the contract): a grid-stride
// sum per thread, a warp-shuffle sum per warp, one atomicAdd per warp.
__global__ void reduce_sum(const double* x, unsigned long long n, double* sum) {
  double acc = 0;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    acc += x[i];
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}
