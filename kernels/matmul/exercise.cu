// Exercise matmul (the classic step after file 001's tile transpose; Numba's documentation has it as fast_matmul):
// C = A B in float32 with 16 x 16 tiles of A and B staged in shared memory.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void fast_matmul(const float* A, const float* B, float* C, unsigned long long m, unsigned long long k, unsigned long long n)
//   A: m x k, B: k x n, C: m x n (float32, C order: A[row][l] is at row * k + l); C is poisoned with NaN before each
//   run. m is --n, k is --param k and n is --param cols (0: m). The run uses --dtype float32. Launch: 2-D, --block
//   BXxBY --grid GXxGY, or auto (auto block 16 x 16 = TPB x TPB; auto grid = ceil(n / 16) x ceil(m / 16): one block
//   per 16 x 16 tile of C, the grid's x along C's columns).
//
// Hints:
//   - The naive kernel (--impl cuda-naive) gives each thread one element C[row][col] and loops over l reading
//     A[row][l] and B[l][col] from global memory: two loads per multiply-add, so memory is the limit.
//   - With TPB = 16, a block of TPB x TPB threads computes one TPB x TPB tile of C. It walks along k in steps of
//     TPB; per step every thread copies one element of A's tile and one of B's tile into __shared__ float
//     sA[TPB][TPB], sB[TPB][TPB], __syncthreads(), adds its TPB products from shared memory, and __syncthreads()
//     again before the next step overwrites the tiles. Each global load now serves TPB multiply-adds.
//   - Keep threadIdx.x along a row of B and C (coalesced) and the column index of C as the grid's x.
//   - m, k and n need not be multiples of 16: fill the parts of a tile outside A or B with 0, and only write the
//     elements of C that exist.
//
// Compile: launchlab-cli compile matmul --kernel-file matmul.cu
// Run:     launchlab-cli run matmul --kernel-file matmul.cu --impl cuda-naive,cuda-tiled-16,my-kernel

#define TPB 16

__global__ void fast_matmul(const float* A, const float* B, float* C, unsigned long long m, unsigned long long k, unsigned long long n) {
  // TODO: stage TPB x TPB tiles of A and B in shared memory step by step along k, and accumulate C[row][col].
}
