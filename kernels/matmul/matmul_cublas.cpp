// matmul's library rows (host code, built with CUDA only): cuBLAS SGEMM in full float32 and cuBLAS with TF32 tensor
// cores. cuBLAS is column-major: the row-major C (m x n) = A B is the column-major C^T = B^T A^T, so B is passed
// first with the sides swapped and no transposition.
#include <cublas_v2.h>

#include <string>

#include "common/gpu_pipeline.cuh"
#include "matmul/matmul.h"

namespace launchlab::kernels::matmul {

namespace {

void check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw GpuError(std::string(what) + ": " + cublasGetStatusName(st) + " (" + cublasGetStatusString(st) + ")");
}

class Handle {
 public:
  Handle() { check(cublasCreate(&m_h), "cublasCreate"); }
  ~Handle() { cublasDestroy(m_h); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  cublasHandle_t get() const { return m_h; }

 private:
  cublasHandle_t m_h = nullptr;
};

/// One GEMM per repetition on the pipeline's stream; TF32: tensor cores on inputs rounded to TF32, else the default
/// math mode (float32 FMAs, no TF32 unless NVIDIA_TF32_OVERRIDE says otherwise — it can only turn TF32 off).
void runCublas(ImplContext& ctx, bool tf32) {
  const MatmulShape s = matmulShape(ctx.setup);
  const int m = int(s.m), k = int(s.k), n = int(s.n);
  Handle h;
  check(cublasSetMathMode(h.get(), tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  ctx.launched = LaunchConfig{Dim3{0, 1, 1}, Dim3{0, 1, 1}, 0};  // 0: not ours to choose
  ctx.launchNote = "chosen by cuBLAS (its heuristics); the --block/--grid options do not apply";
  const float one = 1, zero = 0;
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t st) {
    check(cublasSetStream(h.get(), st), "cublasSetStream");
    const float* a = d.input<float>(0);
    const float* b = d.input<float>(1);
    float* c = d.output<float>(0);
    if (tf32)
      check(cublasGemmEx(h.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, n, a, CUDA_R_32F, k, &zero,
                         c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx (TF32)");
    else
      check(cublasSgemm(h.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n), "cublasSgemm");
  });
}

}  // namespace

void libSgemm(ImplContext& ctx) { runCublas(ctx, false); }
void libTf32(ImplContext& ctx) { runCublas(ctx, true); }

}  // namespace launchlab::kernels::matmul
