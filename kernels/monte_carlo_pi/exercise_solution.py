# Reference solution of exercise monte_carlo_pi (exercise.py beside it states the contract).
# The seed writes this kernel at shared/seeds/003_b76f2a92aa2432c6.txt:268 (compute_pi, with xoroshiro128p states; here the seed and a counter make each point's numbers).
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
    count = uint64(0)
    for i in range(start, n, stride):
        x = uniform01(seed, uint64(2 * i))
        y = uniform01(seed, uint64(2 * i + 1))
        if x * x + y * y <= float32(1.0):
            count += uint64(1)
    cuda.atomic.add(hits, 0, count)
