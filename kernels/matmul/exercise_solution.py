# Reference solution of exercise matmul (exercise.py beside it states the contract).
# The seed writes this kernel at Numba's documentation fast_matmul, which the DLI notebook follows (the seeds name matmul but not its text).
from numba import cuda, float32


TPB = 16


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array((TPB, TPB), float32)
    sB = cuda.shared.array((TPB, TPB), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    k = A.shape[1]
    tmp = float32(0.0)
    for l0 in range(0, k, TPB):
        sA[ty, tx] = A[y, l0 + tx] if y < A.shape[0] and l0 + tx < k else float32(0.0)
        sB[ty, tx] = B[l0 + ty, x] if l0 + ty < k and x < B.shape[1] else float32(0.0)
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp
