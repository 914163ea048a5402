// Exercise vector_add_grid_stride (TP 3.2): out = x + y with a grid-stride loop, so any grid covers any n.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n)
//   x, y: the inputs on the device (n float32 each); out: the output (n float32, poisoned with NaN before each run);
//   n: the number of elements. The run uses --dtype float32. Launch: --block B --grid G, or auto
//   (auto grid = as many blocks as are resident on the GPU at once: fewer threads than elements).
//
// Hints from the course:
//   - start = cuda.grid(1): blockIdx.x * blockDim.x + threadIdx.x
//   - This calculation gives the total number of threads in the entire grid: stride = blockDim.x * gridDim.x
//     (Numba's cuda.gridsize(1))
//   - Each thread starts at its own index and strides the number of threads in the grid each iteration, so long as
//     it has not stepped out of the data's bounds: together all threads work on every element.
//
// Compile: launchlab-cli compile vector_add --exercise vector_add_grid_stride --kernel-file vector_add_grid_stride.cu
// Run:     launchlab-cli run vector_add --exercise vector_add_grid_stride --kernel-file vector_add_grid_stride.cu \
//            --impl cuda-grid-stride,my-kernel

__global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n) {
  // TODO: loop from this thread's global index to n, in steps of the grid's total thread count.
}
