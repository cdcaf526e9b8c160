"""A stand-in for rocThrust's <thrust/complex.h>, for the HIP compile-only gate.

PyTorch's headers include <thrust/complex.h> whenever they are compiled by a GPU compiler
(`__HIPCC__`). ROCm ships it in rocThrust; Debian 12 packages hipcc and rocPRIM but not
rocThrust. The compile gate only needs the declarations torch's c10::complex uses, so this
header provides `thrust::complex<T>` on top of std::complex (which clang's HIP wrappers make
usable in device code) and the math functions c10 calls. It is used only when the HIP
installation has no rocThrust, and never for a build that runs.
"""

from __future__ import annotations

from pathlib import Path

THRUST_COMPLEX_H = r"""// agentkernelarena.native.hipshim: HIP compile-only gate, not for running.
#pragma once
#include <complex>
namespace thrust {
template <typename T>
struct complex : public std::complex<T> {
  using std::complex<T>::complex;
  __host__ __device__ complex(const std::complex<T>& z) : std::complex<T>(z) {}
  template <typename U>
  __host__ __device__ explicit complex(const complex<U>& z)
      : std::complex<T>(T(z.real()), T(z.imag())) {}
};
#define AKA_THRUST_UNARY(R, f)                                       \
  template <typename T>                                              \
  __host__ __device__ R f(const complex<T>& z) {                     \
    return std::f(static_cast<const std::complex<T>&>(z));           \
  }
AKA_THRUST_UNARY(T, abs) AKA_THRUST_UNARY(T, arg) AKA_THRUST_UNARY(T, norm)
AKA_THRUST_UNARY(complex<T>, exp) AKA_THRUST_UNARY(complex<T>, log)
AKA_THRUST_UNARY(complex<T>, log10) AKA_THRUST_UNARY(complex<T>, sqrt)
AKA_THRUST_UNARY(complex<T>, sin) AKA_THRUST_UNARY(complex<T>, cos)
AKA_THRUST_UNARY(complex<T>, tan) AKA_THRUST_UNARY(complex<T>, asin)
AKA_THRUST_UNARY(complex<T>, acos) AKA_THRUST_UNARY(complex<T>, atan)
AKA_THRUST_UNARY(complex<T>, sinh) AKA_THRUST_UNARY(complex<T>, cosh)
AKA_THRUST_UNARY(complex<T>, tanh) AKA_THRUST_UNARY(complex<T>, asinh)
AKA_THRUST_UNARY(complex<T>, acosh) AKA_THRUST_UNARY(complex<T>, atanh)
AKA_THRUST_UNARY(complex<T>, proj) AKA_THRUST_UNARY(complex<T>, conj)
#undef AKA_THRUST_UNARY
template <typename T>
__host__ __device__ complex<T> pow(const complex<T>& a, const complex<T>& b) {
  return std::pow(static_cast<const std::complex<T>&>(a),
                  static_cast<const std::complex<T>&>(b));
}
template <typename T, typename U>
__host__ __device__ complex<T> pow(const complex<T>& a, const U& b) {
  return std::pow(static_cast<const std::complex<T>&>(a), T(b));
}
template <typename T, typename U>
__host__ __device__ complex<U> pow(const T& a, const complex<U>& b) {
  return std::pow(U(a), static_cast<const std::complex<U>&>(b));
}
template <typename T>
__host__ __device__ complex<T> polar(const T& r, const T& theta = T()) {
  return std::polar(r, theta);
}
}  // namespace thrust
"""


def write_shim(directory: Path) -> Path:
    """Write the shim under `directory` (as thrust/complex.h); return the include root."""
    target = directory / "thrust" / "complex.h"
    if not target.is_file() or target.read_text() != THRUST_COMPLEX_H:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(THRUST_COMPLEX_H)
    return directory
