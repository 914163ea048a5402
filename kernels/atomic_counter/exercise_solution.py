# Reference solution of exercise atomic_counter (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1937 (thread_counter_safe).
from numba import cuda


@cuda.jit
def thread_counter(counter, n):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, n, stride):
        cuda.atomic.add(counter, 0, 1)
