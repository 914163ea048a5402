#pragma once
/// Scalar math for float and double that compiles for host and device, so that one formula serves as the CPU
/// reference and inside kernels (libm on the host, CUDA's math library on the device; both IEEE-exact for
/// + - * / and sqrt, within an ulp or two for sin, cos, exp). mulRn is a product that nvcc may not contract
/// into an FMA with a following add, so the GPU rounds step by step exactly like the CPU.
#include <math.h>

#include "common/index_math.h"  // LAUNCHLAB_HD

namespace launchlab::hd {

LAUNCHLAB_HD float sin(float x) { return ::sinf(x); }
LAUNCHLAB_HD double sin(double x) { return ::sin(x); }
LAUNCHLAB_HD float cos(float x) { return ::cosf(x); }
LAUNCHLAB_HD double cos(double x) { return ::cos(x); }
LAUNCHLAB_HD float sqrt(float x) { return ::sqrtf(x); }
LAUNCHLAB_HD double sqrt(double x) { return ::sqrt(x); }
LAUNCHLAB_HD float exp(float x) { return ::expf(x); }
LAUNCHLAB_HD double exp(double x) { return ::exp(x); }
LAUNCHLAB_HD float pow(float x, float y) { return ::powf(x, y); }
LAUNCHLAB_HD double pow(double x, double y) { return ::pow(x, y); }
LAUNCHLAB_HD float tanh(float x) { return ::tanhf(x); }
LAUNCHLAB_HD double tanh(double x) { return ::tanh(x); }
LAUNCHLAB_HD float floor(float x) { return ::floorf(x); }
LAUNCHLAB_HD double floor(double x) { return ::floor(x); }

LAUNCHLAB_HD float mulRn(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
LAUNCHLAB_HD double mulRn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

}  // namespace launchlab::hd
