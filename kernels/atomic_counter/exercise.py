# Exercise atomic_counter (TP 3.2): a counter every thread increments, safely.
#
# The seed writes this kernel at shared/seeds/000_945c5bbc964fcfb4.txt:1937 (thread_counter_safe).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit thread_counter(counter, n)   counter: int32[::1] of one element, zeroed before each launch; n: int64, the
#   number of increments (the seed launches exactly 64 x 64 threads; here the grid may have more)
#
# Hints from the course:
#   - global_counter[0] += 1 is a read, an add and a write: threads overwrite each other (the seed's race).
#   - cuda.atomic.add(counter, 0, 1) makes the increment one indivisible operation.
#
# Compile: launchlab-cli compile atomic_counter --kernel-file exercise.py
# Run:     launchlab-cli run atomic_counter --kernel-file exercise.py --impl my-kernel
from numba import cuda


@cuda.jit
def thread_counter(counter, n):
    i = cuda.grid(1)
    if i < n:
        counter[0] += 1  # TODO: this is the seed's race; make the increment atomic
