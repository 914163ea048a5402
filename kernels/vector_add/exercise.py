# Exercise vector_add (TP 3.2, the course's first add_kernel): out = x + y, one thread per element.
#
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1403 (add_kernel).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit vector_add(x, y, out)   x, y, out: float32[::1], n elements each (out poisoned with NaN before each run)
#
# Hints from the course:
#   - cuda.grid(1) is this thread's unique index in the grid: cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x.
#   - The grid may have more threads than elements: check the index against x.size before touching memory.
#
# Compile: launchlab-cli compile vector_add --kernel-file exercise.py
# Run:     launchlab-cli run vector_add --kernel-file exercise.py --impl my-kernel
from numba import cuda


@cuda.jit
def vector_add(x, y, out):
    idx = cuda.grid(1)
    # TODO: if idx is inside the arrays, write x + y to out at idx.
