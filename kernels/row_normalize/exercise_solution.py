# Reference solution of exercise row_normalize (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/003_b76f2a92aa2432c6.txt:156 (normalize, the first CUDA attempt: x[i, :] / x[i, :].mean() does not compile in a kernel).
from numba import cuda, float32, float64


@cuda.jit
def normalize(x, y):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    d = x.shape[1]
    total = float64(0.0)
    for j in range(d):
        total += x[i, j]
    mean = total / d
    for j in range(d):
        y[i, j] = float32(x[i, j] / mean)
