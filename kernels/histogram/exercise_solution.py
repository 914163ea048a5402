# Reference solution of exercise histogram (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:2023 (cuda_histogram, launched as cuda_histogram[blocks, threads_per_block](d_x, xmin, xmax, d_histogram_out)).
from numba import cuda, float32


@cuda.jit
def cuda_histogram(x, xmin, xmax, counts):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    nbins = counts.shape[0]
    # float32 throughout, as the reference and the C++ kernels bin: nbins / (xmax - xmin) alone is float64 in
    # Numba, and a float64 scale moves the few samples that sit on a bin edge into the next bin.
    scale = float32(nbins) / (xmax - xmin)
    for i in range(start, x.shape[0], stride):
        v = x[i]
        if v >= xmin and v < xmax:
            b = int((v - xmin) * scale)
            if b < nbins:
                cuda.atomic.add(counts, b, 1)
