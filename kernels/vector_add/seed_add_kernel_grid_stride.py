# The seed's grid-stride add_kernel, unchanged: TP 3.1 + TP 3.2 (French), 000_945c5bbc964fcfb4.txt:1715.
# experiments: tp32-grid-stride-add tp32-launch-heuristics
# tp32-launch-heuristics (000:1618) states its rules without a kernel; its sweep runs this one, introduced next.
# exercise: vector_add_grid_stride
from numba import cuda

@cuda.jit
def add_kernel(x, y, out):
    

    start = cuda.grid(1)
    
    # This calculation gives the total number of threads in the entire grid
    stride = cuda.gridsize(1)   # 1 = one dimensional thread grid, returns a single value.
                                # This Numba-provided convenience function is equivalent to
                                # `cuda.blockDim.x * cuda.gridDim.x`

    # This thread will start work at the data element index equal to that of its own
    # unique index in the grid, and then, will stride the number of threads in the grid each
    # iteration so long as it has not stepped out of the data's bounds. In this way, each
    # thread may work on more than one data element, and together, all threads will work on
    # every data element.
    for i in range(start, x.shape[0], stride):
        # Assuming x and y inputs are same length
        out[i] = x[i] + y[i]
