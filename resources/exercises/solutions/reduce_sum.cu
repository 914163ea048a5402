// Reference solution of exercise reduce_sum (resources/exercises/reduce_sum.cu states the contract): a grid-stride
// sum per thread reading two doubles at a time (one 16-byte load: x comes from cudaMalloc, so it is 16-byte
// aligned), a warp-shuffle sum per warp, one atomicAdd per warp.
__global__ void reduce_sum(const double* x, unsigned long long n, double* sum) {
  const unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  const double2* pairs = reinterpret_cast<const double2*>(x);
  double acc = 0;
  for (unsigned long long i = first; i < n / 2; i += stride) {
    const double2 v = pairs[i];
    acc += v.x + v.y;
  }
  if (first == 0 && n % 2 == 1) acc += x[n - 1];  // the odd element left over
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}
