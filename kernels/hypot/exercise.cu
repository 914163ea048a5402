// Exercise hypot (TP 3.2, "refactor hypot_stride into a CUDA kernel using a grid-stride loop"): c = hypot(a, b).
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void hypot_stride(const float* a, const float* b, float* c, unsigned long long n)
//   a, b: the inputs on the device (n float32 each, uniform in [-12, 12)); c: the output (n float32, poisoned with
//   NaN before each run); n: the number of elements. The run uses --dtype float32. Launch: --block B --grid G, or
//   auto (auto grid = as many blocks as are resident on the GPU at once). The seed launches 128 x 64.
//
// Hints from the course:
//   1. Turn the function into a kernel (__global__).
//   2. Find the thread's global ID to access the data.
//   3. Use a grid-stride loop: the thread iterates over several elements with a step of gridDim.x * blockDim.x;
//      consecutive threads touch consecutive elements, so global memory accesses coalesce.
//   4. hypotf(a, b) is CUDA's single-precision hypot.
//
// Compile: launchlab-cli compile hypot --kernel-file hypot.cu
// Run:     launchlab-cli run hypot --kernel-file hypot.cu --impl cuda-grid-stride,my-kernel

__global__ void hypot_stride(const float* a, const float* b, float* c, unsigned long long n) {
  // TODO: a grid-stride loop over n writing c[i] = hypotf(a[i], b[i]).
}
