# Exercise row_normalize (Session 3): each row of x divided by its mean, one thread per row.
#
# The seed writes this kernel at shared/seeds/003_b76f2a92aa2432c6.txt:156 (normalize, the first CUDA attempt: x[i, :] / x[i, :].mean() does not compile in a kernel).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit normalize(x, y)   x, y: float32[:, ::1], n rows x d columns; 1-D launch over the rows
#
# Hints from the course:
#   - Slicing and .mean() are NumPy on the CPU: in a kernel, loop over the row's columns yourself.
#   - Accumulate the sum in float64, then write y[i, j] = x[i, j] / mean.
#
# Compile: launchlab-cli compile row_normalize --kernel-file exercise.py
# Run:     launchlab-cli run row_normalize --kernel-file exercise.py --impl my-kernel
from numba import cuda, float32, float64


@cuda.jit
def normalize(x, y):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    # TODO: the seed's y[i, :] = x[i, :] / x[i, :].mean(), written as loops over the columns.
