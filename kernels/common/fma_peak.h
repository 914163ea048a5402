#pragma once
/// The device's measured FP32 FMA throughput (host function defined in fma_peak.cu; CUDA builds only).
namespace launchlab::gpu {

/// GFLOP/s (an FMA counts 2) of a register-only FMA kernel over 16 blocks of 256 threads per SM, median of reps.
double measureFp32FmaGflops(int multiprocessors, int reps);

}  // namespace launchlab::gpu
