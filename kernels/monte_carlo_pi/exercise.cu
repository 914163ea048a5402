// Exercise monte_carlo_pi (TP 3.1's monte_carlo_pi, on the GPU): count random points of the unit square that fall
// inside the quarter circle x^2 + y^2 <= 1; LaunchLab turns the count into pi = 4 * hits / n.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void monte_carlo_pi(unsigned long long seed, unsigned long long n, unsigned long long* hits)
//   seed: the run's seed (--seed); n: the number of points to draw in total; hits: one counter, set to 0 before
//   each launch: add the number of points inside. The run uses --dtype float32 and --param shape=circle. Launch:
//   --block B --grid G, or auto (auto grid = resident blocks). The workload's other outputs (convergence,
//   per-thread estimates, points) are taken from the reference; the estimate must be within 6 standard errors of pi.
//
// Hints from the course:
//   - monte_carlo_pi(nsamples): for each sample, x = random(), y = random(); if x**2 + y**2 < 1: acc += 1;
//     return 4.0 * acc / nsamples.
//   - Give every point its own random numbers: uniform01(seed, 2 * i) and uniform01(seed, 2 * i + 1) below are a
//     counter-based generator (a hash of the seed and a counter), so threads need no state.
//   - Count in a register over a grid-stride loop and add to *hits once per thread (or per warp): atomicAdd on
//     unsigned long long.

// A counter-based uniform random number in [0, 1): the splitmix64 hash of (seed, counter), top 24 bits.
__device__ float uniform01(unsigned long long seed, unsigned long long counter) {
  unsigned long long z = seed * 0x9E3779B97F4A7C15ull + counter + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return float(z >> 40) * (1.0f / 16777216.0f);
}

__global__ void monte_carlo_pi(unsigned long long seed, unsigned long long n, unsigned long long* hits) {
  // TODO: a grid-stride loop over the n points; count those with x * x + y * y <= 1; add the count to *hits.
}
