# Reference solution of exercise transpose (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/001_88843509cc7ed521.txt:726 (tile_transpose).
from numba import cuda, float32


@cuda.jit
def tile_transpose(a, transposed):
    tile = cuda.shared.array((32, 33), float32)
    a_col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    a_row = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if a_row < a.shape[0] and a_col < a.shape[1]:
        tile[cuda.threadIdx.y, cuda.threadIdx.x] = a[a_row, a_col]
    cuda.syncthreads()
    t_col = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.x
    t_row = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.y
    if t_row < transposed.shape[0] and t_col < transposed.shape[1]:
        transposed[t_row, t_col] = tile[cuda.threadIdx.x, cuda.threadIdx.y]
