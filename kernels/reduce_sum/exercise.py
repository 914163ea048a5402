# Exercise reduce_sum (Session 3): the sum of an array.
#
# The seed writes this kernel at shared/seeds/004_0b07bc7e0cc6bcde.txt:585 (sum_in_cuda, one thread per list; here one sum of the whole array).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit reduce_sum(x, total)   x: float64[::1]; total: float64[::1] of one element, zeroed before each launch;
#   auto grid: resident blocks
#
# Hints from the course:
#   - Each thread adds its grid-stride share in a register, then makes one cuda.atomic.add.
#   - Fewer atomics: sum a block in cuda.shared.array first, then one atomic per block.
#
# Compile: launchlab-cli compile reduce_sum --kernel-file exercise.py
# Run:     launchlab-cli run reduce_sum --kernel-file exercise.py --impl my-kernel
from numba import cuda, float64


@cuda.jit
def reduce_sum(x, total):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    acc = 0.0
    # TODO: add x[i] for i from start to x.shape[0] by stride into acc, then add acc to total[0] atomically.
