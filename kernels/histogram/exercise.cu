// Exercise histogram (TP 3.2, "implement a CUDA kernel for an accelerated histogram"): count the elements of x in
// each of `bins` equal bins over [xmin, xmax).
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void cuda_histogram(const float* x, unsigned long long n, float xmin, float xmax, int bins, unsigned int* counts)
//   x: the input on the device (n float32, normal(0, 1) by default); xmin, xmax, bins: the run's parameters
//   (--param xmin=-4 --param xmax=4 --param bins=10); counts: `bins` counters, set to 0 before each launch.
//   The run uses --dtype float32. Launch: --block B --grid G, or auto (auto grid = resident blocks).
//
// Hints from the course:
//   - cpu_histogram: bin_width = (xmax - xmin) / nbins; bin_number = int((element - xmin) / bin_width); only
//     increment if 0 <= bin_number < nbins.
//   - Use a grid-stride loop and atomic operations (atomicAdd(&counts[b], 1u)): many threads hit the same bin.
//   - The reference counts exactly, in float: an element is counted when xmin <= x < xmax, in bin
//     int((x - xmin) * scale) with scale = float(bins) / (xmax - xmin), when that is below bins. Use the same float
//     arithmetic (multiply by scale) or a few elements on bin edges will land in a neighbouring bin.
//
// Compile: launchlab-cli compile histogram --kernel-file histogram.cu
// Run:     launchlab-cli run histogram --kernel-file histogram.cu --impl cuda-global-atomics,my-kernel

__global__ void cuda_histogram(const float* x, unsigned long long n, float xmin, float xmax, int bins,
                               unsigned int* counts) {
  // TODO: for each element of a grid-stride loop, find its bin and atomically add 1 to counts[bin].
}
