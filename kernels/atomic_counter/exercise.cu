// Exercise atomic_counter (TP 3.2, thread_counter_race_condition vs thread_counter_safe): n increments of one
// counter, done by many threads at once.
//
// Contract (LaunchLab calls your kernel exactly like this; docs/EXERCISES.md):
//   __global__ void thread_counter(int* counter, unsigned long long n)
//   counter: one int32 on the device, set to 0 before each launch; n: the number of increments to make in total
//   (expected result: counter[0] == n). The run uses --dtype int32. Launch: --block B --grid G, or auto
//   (auto grid = ceil(n / block)); the seed launches [64, 64] for n = 4096.
//
// Hints from the course:
//   - global_counter[0] += 1 is bad: a read, an add and a write; threads that read the same old value overwrite
//     each other.
//   - cuda.atomic.add(global_counter, 0, 1) safely adds 1 to offset 0: in CUDA C++, atomicAdd(counter, 1).
//   - A grid smaller than n threads must still make n increments: a grid-stride loop over n.
//
// Compile: launchlab-cli compile atomic_counter --kernel-file atomic_counter.cu
// Run:     launchlab-cli run atomic_counter --kernel-file atomic_counter.cu --impl cuda-atomic,my-kernel

__global__ void thread_counter(int* counter, unsigned long long n) {
  // TODO: make this thread's share of the n increments, safely.
}
