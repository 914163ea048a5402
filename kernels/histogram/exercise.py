# Exercise histogram (TP 3.2): counts of x in equal bins over [xmin, xmax), with global atomics.
#
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:2023 (cuda_histogram, launched as cuda_histogram[blocks, threads_per_block](d_x, xmin, xmax, d_histogram_out)).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit cuda_histogram(x, xmin, xmax, counts)   x: float32[::1]; xmin, xmax: float32; counts: uint32[::1], one per bin,
#   zeroed before each launch; auto grid: resident blocks
#
# Hints from the course:
#   - bin = int((x[i] - xmin) / (xmax - xmin) * counts.size), for xmin <= x[i] < xmax.
#   - Many threads hit one bin: cuda.atomic.add(counts, bin, 1) makes each increment whole.
#
# Compile: launchlab-cli compile histogram --kernel-file exercise.py
# Run:     launchlab-cli run histogram --kernel-file exercise.py --impl my-kernel
from numba import cuda


@cuda.jit
def cuda_histogram(x, xmin, xmax, counts):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    nbins = counts.shape[0]
    bin_width = (xmax - xmin) / nbins
    for i in range(start, x.shape[0], stride):
        # TODO: find x[i]'s bin and add 1 to it with cuda.atomic.add (values outside [xmin, xmax) are skipped).
        pass
