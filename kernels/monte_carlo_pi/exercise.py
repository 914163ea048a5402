# Exercise monte_carlo_pi (DLI / Session 3): count the random points inside the quarter circle.
#
# The seed writes this kernel at shared/seeds/003_b76f2a92aa2432c6.txt:268 (compute_pi, with xoroshiro128p states; here the seed and a counter make each point's numbers).
#
# Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md, "Kernels in Numba"):
#   @cuda.jit monte_carlo_pi(seed, n, hits)   seed: uint64; n: int64 points; hits: uint64[::1] of one element, zeroed before
#   each launch (LaunchLab turns it into pi = 4 hits / n); auto grid: resident blocks
#
# Hints from the course:
#   - uniform01(seed, counter) below gives the same number for the same (seed, counter) on any thread.
#   - Point i uses counters 2 i and 2 i + 1; count the points with x*x + y*y <= 1, then one atomic per thread.
#
# Compile: launchlab-cli compile monte_carlo_pi --kernel-file exercise.py
# Run:     launchlab-cli run monte_carlo_pi --kernel-file exercise.py --impl my-kernel
from numba import cuda, float32, uint64


@cuda.jit(device=True)
def uniform01(seed, counter):
    z = seed * uint64(0x9E3779B97F4A7C15) + counter + uint64(0x632BE59BD9B4E019)
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    z = z ^ (z >> uint64(31))
    return float32(z >> uint64(40)) * float32(1.0 / 16777216.0)


@cuda.jit
def monte_carlo_pi(seed, n, hits):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    count = 0
    # TODO: for every point i of this thread, draw x and y and count those inside the circle; add count to hits[0].
