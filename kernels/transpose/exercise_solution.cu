// Reference solution of exercise transpose (exercise.cu beside it states the contract): the course's
// tile_transpose with bounds checks and one padding column, for square blocks of up to 32 x 32 threads.
__global__ void tile_transpose(const float* a, float* transposed, unsigned long long rows, unsigned long long cols) {
  // [32][33]: the column a warp reads in step 5 spreads over all 32 banks instead of hitting one bank 32 times.
  __shared__ float tile[32][33];
  const unsigned long long a_col = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long a_row = (unsigned long long)blockIdx.y * blockDim.y + threadIdx.y;
  if (a_row < rows && a_col < cols) tile[threadIdx.y][threadIdx.x] = a[a_row * cols + a_col];
  __syncthreads();
  // Row t_row of transposed is column t_row of a; threadIdx.x walks along it (coalesced writes).
  const unsigned long long t_col = (unsigned long long)blockIdx.y * blockDim.y + threadIdx.x;
  const unsigned long long t_row = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.y;
  if (t_row < cols && t_col < rows) transposed[t_row * rows + t_col] = tile[threadIdx.x][threadIdx.y];
}
