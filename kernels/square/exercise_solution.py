# Reference solution of exercise square (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1562 (square_device).
from numba import cuda


@cuda.jit
def square_device(a, out):
    idx = cuda.grid(1)
    if idx < a.size:
        out[idx] = a[idx] * a[idx]
