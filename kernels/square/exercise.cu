// Exercise square (TP 3.2, "Accelerate a CPU function into a CUDA kernel"): out = a**2, one thread per element.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void square_device(const long long* a, long long* out, unsigned long long n)
//   a: the input on the device (n int64, a = arange(n) as in the course: n = 4096); out: the output (n int64,
//   poisoned before each run); n: the number of elements. The run uses --dtype int64 (NumPy's default integer).
//   Launch: --block B --grid G, or auto (auto grid = ceil(n / block): one thread per element).
//
// Hints from the course:
//   - Refactor square_device (def square_device(a): return a**2) into a CUDA kernel: it must handle a single
//     element per thread, and it must use the thread hierarchy (the thread's global ID).
//   - A kernel returns no value: you must provide an output array and write the result into it.
//   - Choose the execution configuration for the size n: the number of threads per block, and the number of blocks
//     needed to cover n (square_device[blocks, threads](d_a, d_out); here --block and --grid, or auto).
//
// Compile: launchlab-cli compile square --kernel-file square.cu
// Run:     launchlab-cli run square --kernel-file square.cu --impl cuda-one-per-thread,my-kernel

__global__ void square_device(const long long* a, long long* out, unsigned long long n) {
  // TODO: compute this thread's global index; if it is below n, write a[i] squared to out[i].
}
