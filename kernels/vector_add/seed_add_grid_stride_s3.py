# The seed's add, unchanged: Numba Session 3 exercises (English), 003_b76f2a92aa2432c6.txt:450.
# experiments: s3-cai-add
# exercise: vector_add_grid_stride
# The seed launches it on CuPy arrays through the CUDA Array Interface; here it runs on LaunchLab's device arrays.
from numba import cuda

@cuda.jit
def add(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]
