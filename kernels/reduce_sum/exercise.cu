// Exercise reduce_sum (TP 3.2 / Session 3, sum_reduce): the sum of an array.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void reduce_sum(const double* x, unsigned long long n, double* sum)
//   x: the input on the device (n float64); sum: one float64, set to 0 before each launch; add your partial sums
//   into it. The run uses --dtype float64. Launch: --block B --grid G, or auto (auto grid = resident blocks).
//   The workload's other output (the 8-element tree drawing) is taken from the reference.
//
// Hints from the course:
//   - out[0] += x[i] in every thread is a race: most additions are lost. atomicAdd(sum, v) makes each one safe but
//     serializes them on one address.
//   - Fewer atomics: each thread first sums its grid-stride share in a register, then the block (or the warp, with
//     __shfl_down_sync) combines its threads' sums, and only one thread per block (or warp) calls atomicAdd.
//   - A shared-memory tree: cuda.shared.array + cuda.syncthreads() between levels (here __shared__ and
//     __syncthreads()).
//
// Compile: launchlab-cli compile reduce_sum --kernel-file reduce_sum.cu
// Run:     launchlab-cli run reduce_sum --kernel-file reduce_sum.cu --impl cuda-warp-shuffle,my-kernel

__global__ void reduce_sum(const double* x, unsigned long long n, double* sum) {
  // TODO: sum this thread's elements (grid-stride), combine within the warp or block, and atomicAdd into sum[0].
}
