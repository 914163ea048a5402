// Exercise transpose (file 001, "Shared memory"): transposed = a^T through a 32 x 32 tile in shared memory, so that
// both the read of a and the write of transposed are coalesced.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void tile_transpose(const float* a, float* transposed, unsigned long long rows, unsigned long long cols)
//   a: the input on the device (rows x cols float32, C order: a[row][col] is at row * cols + col); transposed: the
//   output (cols x rows, poisoned with NaN before each run: transposed[col][row] is at col * rows + row). rows is
//   --n, cols is --param cols (0: square). The run uses --dtype float32. Launch: 2-D, --block BXxBY --grid GXxGY, or
//   auto (auto block 32 x 32 as in the course; auto grid = ceil(cols / 32) x ceil(rows / 32): one block per tile).
//   The workload's other output (the bank-conflict picture) is taken from the reference.
//
// Hints from the course (its tile_transpose assumes a 32 x 32 block and sides that are multiples of 32; here rows
// and cols can be anything, so check every global index against the matrix before reading or writing):
//   1) Create a 32 x 32 shared memory array:  __shared__ float tile[32][32];   (cuda.shared.array((32, 32), ...))
//      For coalesced access map threadIdx.x to the fastest changing index in the data, i.e. the column of a:
//        a_col = blockIdx.x * blockDim.x + threadIdx.x;   a_row = blockIdx.y * blockDim.y + threadIdx.y;
//   2) Make a coalesced read from global memory into the shared memory array, using local thread indices for the
//      shared memory write and global offsets for the global memory read:  tile[threadIdx.y][threadIdx.x] = a[a_row][a_col]
//   3) Wait for all threads in the block to finish updating shared memory:  __syncthreads();   (cuda.syncthreads())
//   4) Calculate the transposed location: blockIdx.y * blockDim.y and blockIdx.x * blockDim.x are swapped (we write
//      to the transposed locations), but keep the access coalesced by matching threadIdx.x to the column:
//        t_col = blockIdx.y * blockDim.y + threadIdx.x;   t_row = blockIdx.x * blockDim.x + threadIdx.y;
//   5) Write from shared memory (thread indices) back to global memory (grid indices), transposing each element
//      within the tile:  transposed[t_row][t_col] = tile[threadIdx.x][threadIdx.y]
//   LaunchLab's note: in step 5 a warp reads a column of the tile, 32 words 32 floats apart, all in one of shared
//   memory's 32 banks (a 32-way conflict). Compare with --impl cuda-tile,cuda-tile-padded, then try tile[32][33].
//
// Compile: launchlab-cli compile transpose --kernel-file transpose.cu
// Run:     launchlab-cli run transpose --kernel-file transpose.cu --impl cuda-tile,cuda-tile-padded,my-kernel --block 32x32

__global__ void tile_transpose(const float* a, float* transposed, unsigned long long rows, unsigned long long cols) {
  __shared__ float tile[32][32];
  const unsigned long long a_col = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long a_row = (unsigned long long)blockIdx.y * blockDim.y + threadIdx.y;
  if (a_row < rows && a_col < cols) tile[threadIdx.y][threadIdx.x] = a[a_row * cols + a_col];
  __syncthreads();
  const unsigned long long t_col = (unsigned long long)blockIdx.y * blockDim.y + threadIdx.x;
  const unsigned long long t_row = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.y;
  if (t_row < cols && t_col < rows) transposed[t_row * rows + t_col] = tile[threadIdx.x][threadIdx.y];
}
