// Reference solution of exercise vector_add_grid_stride (exercise_grid_stride.cu beside it).
__global__ void vector_add(const float* x, const float* y, float* out, unsigned long long n) {
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = x[i] + y[i];
}
