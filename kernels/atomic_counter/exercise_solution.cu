// Reference solution of exercise atomic_counter (exercise.cu beside it states the contract).
__global__ void thread_counter(int* counter, unsigned long long n) {
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(counter, 1);
}
