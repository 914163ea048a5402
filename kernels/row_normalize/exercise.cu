// Exercise row_normalize (Session 3, "Rewriting NumPy array ops"): y[i, :] = x[i, :] / x[i, :].mean() for every
// row i of an n x d matrix, one thread per row.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void normalize(const float* x, float* y, unsigned long long n, unsigned long long d)
//   x: the input on the device (n x d float32, C order: x[i, j] is at i * d + j; by default the course's
//   arange(32 * 3).reshape((32, 3))); y: the output (n x d, poisoned with NaN before each run). n is --n (the rows),
//   d is --param d (the columns). The run uses --dtype float32. Launch: --block B --grid G, or auto (auto grid =
//   ceil(n / block): one thread per row).
//
// Hints from the course:
//   - The CPU version is  for i in range(x.shape[0]): x[i, :] = x[i, :] / x[i, :].mean()
//   - A first approach replaces @jit with @cuda.jit and distributes the loop across threads with cuda.grid(1):
//       i = cuda.grid(1);  x[i, :] = x[i, :] / x[i, :].mean()
//     but array operations are not supported in the CUDA target.
//   - Exercise: rewrite the normalize kernel so that the array division and the mean are computed using for loops
//     and scalar computations with array indexing: one loop sums row i, then one loop divides each element by the
//     mean (here into y, so that x stays the input).
//   - The reference sums each row in double and divides in double (NumPy's mean of float32 is close to that): do
//     the same, or long rows will differ in the last bits.
//
// Compile: launchlab-cli compile row_normalize --kernel-file row_normalize.cu
// Run:     launchlab-cli run row_normalize --kernel-file row_normalize.cu --impl cuda-thread-per-row,my-kernel

__global__ void normalize(const float* x, float* y, unsigned long long n, unsigned long long d) {
  // TODO: i = this thread's row; if i < n, compute the mean of row i with a loop, then write each x[i, j] / mean.
}
