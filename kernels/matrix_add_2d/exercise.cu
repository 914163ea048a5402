// Exercise matrix_add_2d (file 001, "Matrices"): out = a + b on rows x cols matrices, one thread per element of a
// 2-D grid.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void matrix_add(const float* a, const float* b, float* out, unsigned long long rows, unsigned long long cols)
//   a, b: the inputs on the device (rows x cols float32 each, C order: element [y][x] is at y * cols + x); out: the
//   output (rows x cols, poisoned with NaN before each run). rows is --n, cols is --param cols (0: square).
//   The run uses --dtype float32. Launch: 2-D, --block BXxBY --grid GXxGY, or auto (auto block 32 x 8; auto grid
//   = ceil(cols / 32) x ceil(rows / 8): the grid's x runs along a row, its y down the columns).
//
// Hints from the course:
//   - Set x and y to index correctly such that each thread accesses one element in the data:
//       x = blockIdx.x * blockDim.x + threadIdx.x;  y = blockIdx.y * blockDim.y + threadIdx.y   (cuda.grid(2))
//   - Write the sum of one element of a and b to out using a coalesced memory access pattern: out[y][x] =
//     a[y][x] + b[y][x], the thread's x along a row, so the threads of a warp touch consecutive addresses.
//   - The uncoalesced pattern, out[x][y], makes a warp walk down a column (try it: it is several times slower).
//   - The grid may have more threads than elements: check x < cols and y < rows.
//
// Compile: launchlab-cli compile matrix_add_2d --kernel-file matrix_add_2d.cu
// Run:     launchlab-cli run matrix_add_2d --kernel-file matrix_add_2d.cu --impl cuda-coalesced,my-kernel

__global__ void matrix_add(const float* a, const float* b, float* out, unsigned long long rows, unsigned long long cols) {
  // TODO: compute x and y, and if they are inside the matrix, write a + b at row y, column x of out.
}
