// matmul's library rows (host code, built with CUDA only): cuBLAS SGEMM in full float32 and cuBLAS with TF32 tensor
// cores. cuBLAS is column-major: the row-major C (m x n) = A B is the column-major C^T = B^T A^T, so B is passed
// first with the sides swapped and no transposition.
// cuBLAS is loaded at run time (dlopen of libcublas.so.<major>): the toolkit ships no static cuBLAS, and binaries must
// still start with the driver alone. Without the library these rows are skipped with the reason.
#include <cublas_v2.h>
#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "common/gpu_pipeline.cuh"
#include "launchlab/engine/errors.h"
#include "matmul/matmul.h"

namespace launchlab::kernels::matmul {

namespace {

/// The cuBLAS entry points this file uses, resolved once from the shared library of the toolkit it was built with.
struct CublasApi {
  decltype(&::cublasCreate_v2) create = nullptr;
  decltype(&::cublasDestroy_v2) destroy = nullptr;
  decltype(&::cublasSetStream_v2) setStream = nullptr;
  decltype(&::cublasSetMathMode) setMathMode = nullptr;
  decltype(&::cublasSgemm_v2) sgemm = nullptr;
  // The C entry point (the header adds a C++ overload with cudaDataType as the compute type).
  cublasStatus_t (*gemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                           const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                           cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  decltype(&::cublasGetStatusName) statusName = nullptr;
  std::string missing;  ///< why it could not be loaded; empty when every entry point is there
};

const CublasApi& cublas() {
  static const CublasApi api = [] {
    CublasApi a;
    const std::string lib = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen(("/usr/local/cuda/lib64/" + lib).c_str(), RTLD_NOW | RTLD_LOCAL);  // the toolkit's default home
    if (!h) {
      a.missing = lib + " not found (install the CUDA toolkit's cuBLAS or add its folder to LD_LIBRARY_PATH)";
      return a;
    }
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
      if (!fn && a.missing.empty()) a.missing = lib + " lacks " + name;
    };
    sym(a.create, "cublasCreate_v2");
    sym(a.destroy, "cublasDestroy_v2");
    sym(a.setStream, "cublasSetStream_v2");
    sym(a.setMathMode, "cublasSetMathMode");
    sym(a.sgemm, "cublasSgemm_v2");
    sym(a.gemmEx, "cublasGemmEx");
    sym(a.statusName, "cublasGetStatusName");
    return a;  // the library stays loaded for the process's life
  }();
  if (!api.missing.empty()) throw Unavailable(api.missing);
  return api;
}

void check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw GpuError(std::string(what) + ": " + cublas().statusName(st) + " (status " + std::to_string(int(st)) + ")");
}

class Handle {
 public:
  Handle() { check(cublas().create(&m_h), "cublasCreate"); }
  ~Handle() { cublas().destroy(m_h); }
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
  check(cublas().setMathMode(h.get(), tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  ctx.launched = LaunchConfig{Dim3{0, 1, 1}, Dim3{0, 1, 1}, 0};  // 0: not ours to choose
  ctx.launchNote = "chosen by cuBLAS (its heuristics); the --block/--grid options do not apply";
  const float one = 1, zero = 0;
  gpu::runPipeline(ctx, [&](gpu::DeviceArrays& d, cudaStream_t st) {
    check(cublas().setStream(h.get(), st), "cublasSetStream");
    const float* a = d.input<float>(0);
    const float* b = d.input<float>(1);
    float* c = d.output<float>(0);
    if (tf32)
      check(cublas().gemmEx(h.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, n, a, CUDA_R_32F, k, &zero,
                            c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx (TF32)");
    else
      check(cublas().sgemm(h.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n), "cublasSgemm");
  });
}

}  // namespace

void libSgemm(ImplContext& ctx) { runCublas(ctx, false); }
void libTf32(ImplContext& ctx) { runCublas(ctx, true); }

}  // namespace launchlab::kernels::matmul
