# Reference solution of exercise vector_add (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1403 (add_kernel).
from numba import cuda


@cuda.jit
def vector_add(x, y, out):
    idx = cuda.grid(1)
    if idx < x.size:
        out[idx] = x[idx] + y[idx]
