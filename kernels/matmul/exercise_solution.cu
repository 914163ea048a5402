// Reference solution of exercise matmul (exercise.cu beside it states the contract), for the auto block
// TPB x TPB = 16 x 16.
#define TPB 16

__global__ void fast_matmul(const float* A, const float* B, float* C, unsigned long long m, unsigned long long k, unsigned long long n) {
  __shared__ float sA[TPB][TPB];  // A[row][l0 + j] of the block's TPB rows
  __shared__ float sB[TPB][TPB];  // B[l0 + j][col] of the block's TPB columns
  const unsigned int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned long long col = (unsigned long long)blockIdx.x * TPB + tx;
  const unsigned long long row = (unsigned long long)blockIdx.y * TPB + ty;
  float tmp = 0.0f;
  for (unsigned long long l0 = 0; l0 < k; l0 += TPB) {
    // One element of each tile per thread, 0 outside the matrices.
    sA[ty][tx] = (row < m && l0 + tx < k) ? A[row * k + l0 + tx] : 0.0f;
    sB[ty][tx] = (l0 + ty < k && col < n) ? B[(l0 + ty) * n + col] : 0.0f;
    __syncthreads();  // both tiles are complete
    for (int j = 0; j < TPB; ++j) tmp += sA[ty][j] * sB[j][tx];
    __syncthreads();  // everyone is done with them before the next step overwrites them
  }
  if (row < m && col < n) C[row * n + col] = tmp;
}
