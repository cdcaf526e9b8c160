"""The warp-size lint: hard-coded 64- or 32-lane assumptions, reported by line."""

from __future__ import annotations

import pytest

from agentkernelarena.native import PortabilityWarning, check_warp_size, hip_to_cuda

WAVE64_KERNEL = """\
#include <hip/hip_runtime.h>
#define WAVE_SIZE 64
constexpr int kWarpSize = 64;
__global__ void k(const float* x, float* out, unsigned long long* masks) {
  const int tid = threadIdx.x;
  const int lane = tid & 63;
  const int wave = threadIdx.x / 64;
  float v = x[tid];
  for (int offset = 32; offset > 0; offset >>= 1)
    v += __shfl_down(v, offset);
  unsigned long long m = __ballot(v > 0.f);
  v += __shfl_xor(v, 1, 64);
  if (warpSize == 64 && lane == 0) out[wave] = v;
  masks[wave] = m & 0xffffffffffffffffull;
  if (__AMDGCN_WAVEFRONT_SIZE == 64) v = __builtin_amdgcn_readfirstlane(v);
}
"""


def _lines(warnings: list[PortabilityWarning]) -> set[int]:
    return {w.line for w in warnings}


def test_wave64_idioms_are_reported_with_their_lines() -> None:
    warnings = check_warp_size(WAVE64_KERNEL)
    by_line: dict[int, list[str]] = {}
    for w in warnings:
        by_line.setdefault(w.line, []).append(w.message)
    assert "WAVE_SIZE" in by_line[2][0]
    assert "kWarpSize" in by_line[3][0]
    assert "'tid & 63' assumes 64-lane" in by_line[6][0]
    assert "'threadIdx.x / 64' assumes 64-lane" in by_line[7][0]
    assert "offset 32" in by_line[9][0] and "64 lanes" in by_line[9][0]
    assert "__ballot" in by_line[11][0]
    assert "width 64" in by_line[12][0]
    assert "compares warpSize with 64" in by_line[13][0]
    assert "64-bit lane mask" in by_line[14][0]
    assert any("__AMDGCN_WAVEFRONT_SIZE" in m for m in by_line[15])
    assert any("__builtin_amdgcn_readfirstlane" in m for m in by_line[15])
    assert set(by_line) == {2, 3, 6, 7, 9, 11, 12, 13, 14, 15}
    assert str(warnings[0]).startswith("line 2: ")


def test_32_lane_assumptions_are_reported_too() -> None:
    src = (
        "int lane = threadIdx.x % 32;\n"
        "int warp = tid >> 5;\n"
        "for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, 32);\n"
        "if (warpSize != 32) return;\n"
        "#define WARP_SIZE 32\n"
    )
    warnings = check_warp_size(src)
    assert _lines(warnings) == {1, 2, 3, 4, 5}
    assert any("32 lanes" in w.message for w in warnings if w.line == 3)
    assert any("width 32" in w.message for w in warnings if w.line == 3)


@pytest.mark.parametrize(
    "portable",
    [
        "int lane = threadIdx.x % warpSize;\n",
        "for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);\n",
        "int row = i % 64; float tile[64][64]; int blocks = (n + 63) / 64;\n",
        '// lane = tid & 63 in a comment\nconst char* s = "threadIdx.x % 64";\n',
        "constexpr int TILE = 32; __shared__ float t[TILE][TILE + 1];\n",
        "__launch_bounds__(256) void f();\n",
    ],
)
def test_portable_code_is_quiet(portable: str) -> None:
    assert check_warp_size(portable) == []


def test_hip_to_cuda_returns_the_lint() -> None:
    _, warnings = hip_to_cuda(WAVE64_KERNEL)
    assert _lines(warnings) == _lines(check_warp_size(WAVE64_KERNEL))
    assert all(isinstance(w, PortabilityWarning) for w in warnings)
