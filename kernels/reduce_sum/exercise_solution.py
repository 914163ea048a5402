# Reference solution of exercise reduce_sum (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/004_0b07bc7e0cc6bcde.txt:585 (sum_in_cuda, one thread per list; here one sum of the whole array).
from numba import cuda, float64


TPB_MAX = 1024


@cuda.jit
def reduce_sum(x, total):
    partial = cuda.shared.array(TPB_MAX, dtype=float64)
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    acc = 0.0
    for i in range(start, x.shape[0], stride):
        acc += x[i]
    t = cuda.threadIdx.x
    partial[t] = acc
    cuda.syncthreads()
    # The block's sum by halving: a block of any size (the upper half folds onto the lower one).
    width = cuda.blockDim.x
    while width > 1:
        half = (width + 1) // 2
        if t < width - half:
            partial[t] += partial[t + half]
        cuda.syncthreads()
        width = half
    if t == 0:
        cuda.atomic.add(total, 0, partial[0])
