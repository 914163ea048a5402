# Exercise matrix_add_2d (the Spanish notes' coalescing exercise): out = a + b on a 2-D grid.
#
# The seed writes this kernel at shared/seeds/001_88843509cc7ed521.txt:670 (matrix_add, its coalesced branch).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit matrix_add(a, b, out)   a, b, out: float32[:, ::1], rows x cols; 2-D launch: x over the columns, y over the rows
#
# Hints from the course:
#   - x, y = cuda.grid(2): x is the column, y the row.
#   - out[y, x] = a[y, x] + b[y, x]: neighbouring threads touch neighbouring addresses (coalesced).
#   - Check y < a.shape[0] and x < a.shape[1]: the grid rounds up.
#
# Compile: launchlab-cli compile matrix_add_2d --kernel-file exercise.py
# Run:     launchlab-cli run matrix_add_2d --kernel-file exercise.py --impl my-kernel
from numba import cuda


@cuda.jit
def matrix_add(a, b, out):
    x, y = cuda.grid(2)
    # TODO: inside the matrix, write a + b to out with a coalesced pattern (the column varies fastest).
