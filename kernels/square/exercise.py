# Exercise square (TP 3.2): out = a**2, one thread per element.
#
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1562 (square_device).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit square_device(a, out)   a, out: int64[::1] (the seed's np.arange(n))
#
# Hints from the course:
#   - The seed's CPU function returns a**2; a kernel returns nothing, so it writes out[idx].
#   - Check idx against a.size: the last block may reach past the end.
#
# Compile: launchlab-cli compile square --kernel-file exercise.py
# Run:     launchlab-cli run square --kernel-file exercise.py --impl my-kernel
from numba import cuda


@cuda.jit
def square_device(a, out):
    idx = cuda.grid(1)
    # TODO: out[idx] = a[idx] ** 2 for the threads inside the array
