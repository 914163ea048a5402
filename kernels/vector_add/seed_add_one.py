# The seed's add_one, unchanged: Numba Session 3 exercises (English), 003_b76f2a92aa2432c6.txt:499.
# experiments: s3-add-one
# exercise: vector_add
# arguments: out<x
# It adds one to its array in place, as in the seed: the run passes out, loaded with x (arange) before each launch,
# so out = x + 1 = x + y with the experiment's y = ones, and x stays as it was for verification.
from numba import cuda

@cuda.jit
def add_one(x):
    i = cuda.grid(1)
    if i < len(x):
        x[i] += 1
