// Reference solution of exercise reduce_sum (exercise.cu beside it states the contract), shaped like the
// built-in cuda-warp-shuffle: a grid-stride loop over pairs of doubles (one 16-byte load each: x comes from
// cudaMalloc, so it is 16-byte aligned) with four loads in flight per thread, a warp-shuffle sum per warp, the
// warps' sums added in shared memory, and one atomicAdd per block.
__global__ void reduce_sum(const double* x, unsigned long long n, double* sum) {
  __shared__ double warpSums[32];
  const unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  const double2* pairs = reinterpret_cast<const double2*>(x);
  const unsigned long long nPairs = n / 2;

  // 1. This thread's share. Four independent loads are issued before any is added (four accumulators), so each
  //    thread keeps 64 bytes in flight: memory latency needs that many to reach full bandwidth.
  double acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  unsigned long long i = first;
  for (; i + 3 * stride < nPairs; i += 4 * stride) {
    const double2 p0 = __ldg(&pairs[i]), p1 = __ldg(&pairs[i + stride]);
    const double2 p2 = __ldg(&pairs[i + 2 * stride]), p3 = __ldg(&pairs[i + 3 * stride]);
    acc0 += p0.x + p0.y;
    acc1 += p1.x + p1.y;
    acc2 += p2.x + p2.y;
    acc3 += p3.x + p3.y;
  }
  for (; i < nPairs; i += stride) {  // the last few pairs, one at a time
    const double2 p = __ldg(&pairs[i]);
    acc0 += p.x + p.y;
  }
  if (first == 0 && n % 2 == 1) acc0 += x[n - 1];  // the odd element left over
  double v = (acc0 + acc1) + (acc2 + acc3);

  // 2. The warp's sum in lane 0: each step adds the value `offset` lanes higher. A block need not be a multiple of
  //    32 threads: the last warp then has `lanes` threads, and only they take part.
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned lanes = blockDim.x - warp * 32 < 32 ? blockDim.x - warp * 32 : 32;
  const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    const double other = __shfl_down_sync(mask, v, offset);
    if (lane + offset < lanes) v += other;
  }

  // 3. The block's sum: lane 0 of every warp leaves its sum in shared memory, thread 0 adds them up and makes the
  //    block's only atomicAdd.
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double block = 0;
    for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w) block += warpSums[w];
    atomicAdd(sum, block);
  }
}
