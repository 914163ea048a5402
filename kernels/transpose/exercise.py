# Exercise transpose (the Spanish notes' shared-memory exercise): through a 32 x 32 tile.
#
# The seed writes this kernel at shared/seeds/001_88843509cc7ed521.txt:726 (tile_transpose).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit tile_transpose(a, transposed)   a: float32[:, ::1] rows x cols; transposed: float32[:, ::1] cols x rows;
#   2-D launch with 32 x 32 blocks
#
# Hints from the course:
#   - cuda.shared.array((32, 33), float32): the 33rd column spreads a tile's column over all 32 banks.
#   - cuda.syncthreads() between writing the tile and reading it back transposed.
#   - Unlike the seed, the matrix need not be a multiple of 32: check both reads and writes.
#
# Compile: launchlab-cli compile transpose --kernel-file exercise.py
# Run:     launchlab-cli run transpose --kernel-file exercise.py --impl my-kernel
from numba import cuda, float32


@cuda.jit
def tile_transpose(a, transposed):
    tile = cuda.shared.array((32, 33), float32)
    a_col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    a_row = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    # TODO: read a[a_row, a_col] into the tile, wait for the block, then write the tile back transposed.
