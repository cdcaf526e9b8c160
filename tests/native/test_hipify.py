"""HIP -> CUDA translation: the reversed hipify tables and the rules they lack."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from agentkernelarena.native import hip_to_cuda
from agentkernelarena.native.hipify import reverse_tables

SAMPLES = ["reduce_shfl.hip", "launch_templates.hip", "shared_sync.hip"]


def _code_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if not ln.lstrip().startswith("//")]


def test_reversed_table_keeps_plain_types_and_prefers_the_mechanical_rename() -> None:
    idents, _, includes = reverse_tables()
    assert "int" not in idents and "bool" not in idents and "uint32_t" not in idents
    assert all(re.search(r"hip|roc", h, re.IGNORECASE) for h in idents)
    assert idents["hipMalloc"] == "cudaMalloc"  # not cuMemAlloc / cuMemAlloc_v2
    assert idents["hipError_t"] == "cudaError_t"  # not CUresult
    assert idents["hipDeviceProp_t"] == "cudaDeviceProp"
    assert idents["hipStream_t"] == "cudaStream_t"
    assert idents["hipMemcpyDeviceToHost"] == "cudaMemcpyDeviceToHost"
    assert includes["hip/hip_runtime.h"] == "cuda_runtime.h"
    assert includes["hip/hip_fp16.h"] == "cuda_fp16.h"
    assert reverse_tables.cache_info().currsize == 1
    reverse_tables()
    assert reverse_tables.cache_info().misses == 1


def test_reduction_with_maskless_shuffles(data: Callable[[str], str]) -> None:
    cuda, warnings = hip_to_cuda(data("reduce_shfl.hip"))
    assert "#include <cuda_runtime.h>" in cuda
    assert "v += __shfl_down_sync(0xffffffff, v, offset);" in cuda
    assert "fmaxf(v, __shfl_xor_sync(0xffffffff, v, mask))" in cuda
    assert "__shfl_up_sync(0xffffffff, v, d)" in cuda
    assert "__shfl_sync(0xffffffff, m, 0)" in cuda
    assert "const int lane = threadIdx.x % warpSize;" in cuda
    assert "block_reduce<<<dim3(blocks), dim3(threads), 0, stream>>>(" in cuda
    assert "cudaError_t launch_block_reduce" in cuda and "cudaStream_t stream" in cuda
    assert not any("hip" in ln.lower() for ln in _code_lines(cuda))
    assert warnings == []  # written with warpSize: portable


def test_launches_with_templates_and_nested_arguments(data: Callable[[str], str]) -> None:
    cuda, _ = hip_to_cuda(data("launch_templates.hip"))
    assert "axpy<T, 4><<<grid, block, 0, stream>>>(alpha, x, y, n);" in cuda
    flat = re.sub(r"\s+", " ", cuda)
    assert (
        "scale<T, 256, true><<< dim3(blocks_for(n, 256)), dim3(256), 0, stream>>>( "
        "Params<T>{x, y, n}, static_cast<T>(alpha * T(2)));" in flat
    )
    assert (
        "axpy<T, 1><<<dim3(blocks_for(n, 256)), block, 0, 0>>>( alpha, x, y, n < 16 ? n : 16);"
        in flat
    )
    assert "HIP_KERNEL_NAME" not in "\n".join(_code_lines(cuda))


def test_launch_forms() -> None:
    src = (
        "hipLaunchKernelGGL(HIP_KERNEL_NAME(k<float, (N > 2)>), g, b, 0, 0, f(a, g(b)), c[i, j]);\n"
        "hipLaunchKernelGGL(plain, dim3(1), dim3(64), 0, s);\n"
        "hipLaunchKernelGGL(k2, g, b, 0, s, \"a,b)\", '(');\n"
    )
    cuda, _ = hip_to_cuda(src)
    lines = cuda.splitlines()
    assert lines[0] == "k<float, (N > 2)><<<g, b, 0, 0>>>(f(a, g(b)), c[i, j]);"
    assert lines[1] == "plain<<<dim3(1), dim3(64), 0, s>>>();"
    assert lines[2] == "k2<<<g, b, 0, s>>>(\"a,b)\", '(');"


def test_malformed_launch_is_reported_not_mangled() -> None:
    cuda, warnings = hip_to_cuda("void f() {\n  hipLaunchKernelGGL(k, g, b);\n}\n")
    assert "hipLaunchKernelGGL(k, g, b)" in cuda
    assert [w.line for w in warnings] == [2]


def test_shared_memory_runtime_calls_and_sync(data: Callable[[str], str]) -> None:
    cuda, warnings = hip_to_cuda(data("shared_sync.hip"))
    assert "extern __shared__ float buf[];" in cuda
    assert "__shared__ float tile[TILE][TILE + 1];" in cuda
    for name in [
        "cudaMalloc(&d_in, bytes)",
        "cudaDeviceSynchronize()",
        "cudaEventElapsedTime",
        "cudaMemcpyDeviceToHost",
        "cudaDeviceProp prop;",
        "cudaGetErrorString(e)",
        "cudaStreamCreate(&stream)",
        "cudaFree(d_sum)",
        "threadIdx.y + j",
    ]:
        assert name in cuda, name
    assert "HIP_CHECK(" in cuda  # the program's own macro keeps its name
    assert warnings == []


@pytest.mark.parametrize("sample", SAMPLES)
def test_line_numbers_are_preserved(sample: str, data: Callable[[str], str]) -> None:
    """Errors in the translated file must point at the .hip line the agent wrote."""
    hip = data(sample)
    cuda, _ = hip_to_cuda(hip)
    assert cuda.count("\n") == hip.count("\n")
    hip_lines, cuda_lines = hip.splitlines(), cuda.splitlines()
    launches = [
        i for i, ln in enumerate(hip_lines) if "hipLaunchKernelGGL(" in ln and "//" not in ln
    ]
    assert launches
    for i in launches:
        assert "<<<" in cuda_lines[i]
    for marker in ("__syncthreads();", "return "):
        assert [i for i, ln in enumerate(hip_lines) if marker in ln] == [
            i for i, ln in enumerate(cuda_lines) if marker in ln
        ]


def test_pytorch_hip_spellings() -> None:
    src = (
        "#include <ATen/hip/HIPContext.h>\n"
        "#include <hipcub/hipcub.hpp>\n"
        "auto s = at::hip::getCurrentHIPStreamMasqueradingAsCUDA();\n"
        "typedef hipcub::BlockReduce<float, 256> R;\n"
        "__hip_bfloat16 h; hipLaunchKernelGGL(k, 1, 1, 0, s, h);\n"
        "#ifdef __HIP_PLATFORM_AMD__\n#endif\n"
    )
    cuda, _ = hip_to_cuda(src)
    assert "#include <ATen/cuda/CUDAContext.h>" in cuda
    assert "#include <cub/cub.cuh>" in cuda
    assert "at::cuda::getCurrentCUDAStream()" in cuda
    assert "typedef cub::BlockReduce<float, 256> R;" in cuda
    assert "__nv_bfloat16 h; k<<<1, 1, 0, s>>>(h);" in cuda
    assert "__HIP_PLATFORM_AMD__" in cuda  # left alone: undefined on CUDA, as it should be


def test_64_bit_masks_in_sync_calls_become_32_bit() -> None:
    cuda, warnings = hip_to_cuda("v = __shfl_down_sync(0xffffffffffffffffull, v, 1);\n")
    assert cuda.strip() == "v = __shfl_down_sync(0xffffffff, v, 1);"
    assert warnings and warnings[0].line == 1


@pytest.mark.parametrize("sample", SAMPLES)
def test_translated_sources_compile_with_nvcc(
    sample: str, data: Callable[[str], str], nvcc: str, tmp_path: Path
) -> None:
    """Round trip: the translation of each sample is plain CUDA that nvcc accepts for sm_90."""
    cuda, _ = hip_to_cuda(data(sample))
    src = tmp_path / sample.replace(".hip", ".cu")
    src.write_text(cuda)
    proc = subprocess.run(
        [nvcc, "-arch=sm_90", "-c", str(src), "-o", str(tmp_path / "out.o")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
