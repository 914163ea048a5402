# Reference solution of exercise matrix_add_2d (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/001_88843509cc7ed521.txt:670 (matrix_add, its coalesced branch).
from numba import cuda


@cuda.jit
def matrix_add(a, b, out):
    x, y = cuda.grid(2)
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = a[y, x] + b[y, x]
