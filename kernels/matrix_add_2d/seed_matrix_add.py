# The seed's matrix_add, unchanged: the Spanish notes, 001_88843509cc7ed521.txt:670.
# experiments: es-matrix-add-2d
# exercise: matrix_add_2d
# arguments: a b out coalesced=True
# The seed's flag picks the access order; the run passes coalesced=True (out[y][x], cuda-coalesced's order). It has
# no bounds check, as in the seed: the grid covers the matrix exactly (64 x 64 blocks of 32 x 32 on 2048 x 2048).
from numba import cuda

@cuda.jit
def matrix_add(a, b, out, coalesced):
    # TODO: set x and y to index correctly such that each thread
    # accesses one element in the data.
    x, y = cuda.grid(2)
    
    if coalesced == True:
        # TODO: write the sum of one element in `a` and `b` to `out`
        # using a coalesced memory access pattern.
        out[y][x]=a[y][x]+b[y][x] # Por columna
    else:
        # TODO: write the sum of one element in `a` and `b` to `out`
        # using an uncoalesced memory access pattern.
        out[x][y]=a[x][y]+b[x][y] # Por fila
