// Exercise vector_add (TP 3.2, the course's first add_kernel): out = x + y, one thread per element.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n)
//   x, y: the inputs on the device (n float32 each); out: the output (n float32, poisoned with NaN before each run);
//   n: the number of elements. The run uses --dtype float32. Launch: --block B --grid G, or auto
//   (auto grid = ceil(n / block): one thread per element).
//
// Hints from the course:
//   - This calculation gives a unique thread index within the entire grid:
//     blockIdx.x * blockDim.x + threadIdx.x   (Numba's cuda.grid(1))
//   - This thread will do the work on the data element with the same index as its own unique index in the grid.
//   - The grid may have more threads than elements: check the index against n before touching memory.
//
// Compile: launchlab-cli compile vector_add --kernel-file vector_add.cu
// Run:     launchlab-cli run vector_add --kernel-file vector_add.cu --impl cuda-one-per-thread,my-kernel

__global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n) {
  // TODO: compute this thread's global index, and if it is below n, write x + y to out at that index.
}
