"""HIP -> CUDA source translation, so a `hip2hip` task can run on an NVIDIA GPU.

PyTorch ships the CUDA -> HIP tables its own `hipify` uses; reversing them gives most of the
HIP -> CUDA renames for free and keeps us in step with new ROCm names. Reversing naively breaks
code, though (see PLATFORM-NOTES.md): a dozen entries map CUDA names to plain C types
(`nvtxRangeId_t -> int`), so only HIP-looking targets are kept; and about 500 HIP names come
from several CUDA names (runtime vs driver API), so the mechanical rename (`hipMalloc` ->
`cudaMalloc`) wins when it is one of the candidates. The tables also lack what hipify does in
code (kernel launches, `hipThreadIdx_x`, mask-less shuffles); those are the explicit rules here.

The translation keeps every line on its line, so compiler errors in the translated file point
at the right line of the `.hip` source. No table knows that AMD's wavefront is 64 lanes wide and
NVIDIA's warp 32: `warpsize.check_warp_size` reports code that hard-codes either.
"""

from __future__ import annotations

import functools
import re

from agentkernelarena.native.warpsize import PortabilityWarning, check_warp_size

__all__ = ["PortabilityWarning", "hip_to_cuda", "reverse_tables"]

_IDENT = re.compile(r"[A-Za-z_]\w*")
_HIP_TARGET = re.compile(r"^(hip|HIP|roc)")
_INCLUDE = re.compile(r'^(\s*#\s*include\s*)([<"])([^>"]+)([>"])(.*)$')

# Names the tables lack or filter out (their targets do not start with hip/HIP/roc).
_EXTRA_IDENTIFIERS: dict[str, str] = {
    "__HIPCC__": "__CUDACC__",
    "__HIP_DEVICE_COMPILE__": "__CUDA_ARCH__",
    "__hip_bfloat16": "__nv_bfloat16",
    "__hip_bfloat162": "__nv_bfloat162",
    "make_hipExtent": "make_cudaExtent",
    "make_hipPitchedPtr": "make_cudaPitchedPtr",
    "make_hipPos": "make_cudaPos",
    # PyTorch's HIP spellings, as hipified extensions use them.
    "getCurrentHIPStream": "getCurrentCUDAStream",
    "getCurrentHIPStreamMasqueradingAsCUDA": "getCurrentCUDAStream",
    "getDefaultHIPStream": "getDefaultCUDAStream",
    "HIPStream": "CUDAStream",
    "HIPStreamMasqueradingAsCUDA": "CUDAStream",
    "HIPGuard": "CUDAGuard",
    "HIPGuardMasqueradingAsCUDA": "CUDAGuard",
    "OptionalHIPGuard": "OptionalCUDAGuard",
    "OptionalHIPGuardMasqueradingAsCUDA": "OptionalCUDAGuard",
    "HIPStreamGuard": "CUDAStreamGuard",
    "HIPStreamGuardMasqueradingAsCUDA": "CUDAStreamGuard",
    "C10_HIP_KERNEL_LAUNCH_CHECK": "C10_CUDA_KERNEL_LAUNCH_CHECK",
    "C10_HIP_CHECK": "C10_CUDA_CHECK",
}
_BUILTIN_INDEX = {
    f"hip{hip}_{axis}": f"{cuda}.{axis}"
    for hip, cuda in (
        ("ThreadIdx", "threadIdx"),
        ("BlockIdx", "blockIdx"),
        ("BlockDim", "blockDim"),
        ("GridDim", "gridDim"),
    )
    for axis in "xyz"
}
_EXTRA_INCLUDES: dict[str, str] = {
    "hip/hip_runtime.h": "cuda_runtime.h",
    "hip/hip_runtime_api.h": "cuda_runtime_api.h",
    "hipcub/hipcub.hpp": "cub/cub.cuh",
    "hipblas/hipblas.h": "cublas_v2.h",  # hipBLAS is the handle-based (v2) API
    "ATen/hip/HIPContext.h": "ATen/cuda/CUDAContext.h",
    "ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h": "c10/cuda/CUDAGuard.h",
    "ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h": "c10/cuda/CUDAStream.h",
}
# Mask-less warp intrinsics (HIP) -> CUDA's *_sync forms with a full 32-lane mask.
_SYNC_INTRINSICS = re.compile(
    r"\b(__shfl_down|__shfl_up|__shfl_xor|__shfl|__ballot|__any|__all)(\s*\()"
)
_SYNC_CALL_64_MASK = re.compile(r"\b(__\w+_sync\s*\(\s*)0x[fF]{16}\w*")
_NAMESPACE_HIP = re.compile(r"\b(at|c10)::hip::")


def _mechanical(hip_name: str) -> str:
    """The rename a person would do by hand: hip->cuda, HIP->CUDA, Hip->Cuda."""
    return hip_name.replace("hip", "cuda").replace("HIP", "CUDA").replace("Hip", "Cuda")


def _pick(hip_name: str, candidates: list[str]) -> str:
    """Choose among CUDA names that hipify maps to the same HIP name."""
    mech = _mechanical(hip_name)
    return min(
        candidates,
        key=lambda c: (c != mech, not c.startswith(("cuda", "CUDA")), c.startswith("CU"), len(c)),
    )


def _pick_include(hip_path: str, candidates: list[str]) -> str:
    base = hip_path.rsplit("/", 1)[-1]
    mech = _mechanical(hip_path.removeprefix("hip/"))
    stem = base.split(".")[0]
    cu_stem = "cu" + stem[3:] if stem.startswith("hip") else stem

    def rank(c: str) -> tuple[bool, bool, int]:
        return (c != mech, c.rsplit("/", 1)[-1].split(".")[0] != cu_stem, len(c))

    return min(candidates, key=rank)


@functools.cache
def reverse_tables() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(identifiers, scoped names like `hipcub::`, include paths), HIP -> CUDA; built once."""
    from torch.utils.hipify.cuda_to_hip_mappings import CUDA_TO_HIP_MAPPINGS

    idents: dict[str, list[str]] = {}
    scoped: dict[str, list[str]] = {}
    includes: dict[str, list[str]] = {}
    for table in CUDA_TO_HIP_MAPPINGS:
        for cuda, hip in table.items():
            if not isinstance(hip, str):  # older torch: (name, kind) tuples
                hip = hip[0]
            cuda, hip = cuda.strip(), hip.strip()
            if " " in cuda or "<" in cuda or '"' in cuda or cuda == hip:
                continue
            if "/" in hip or hip.endswith((".h", ".hpp", ".cuh")):
                if "hip" in hip.lower() or "roc" in hip:
                    includes.setdefault(hip, []).append(cuda)
            elif not _HIP_TARGET.match(hip):
                continue
            elif "::" in hip:
                scoped.setdefault(hip, []).append(cuda)
            elif _IDENT.fullmatch(hip) and _IDENT.fullmatch(cuda):
                idents.setdefault(hip, []).append(cuda)
    ident_map = {h: _pick(h, cs) for h, cs in idents.items()}
    ident_map.update(_EXTRA_IDENTIFIERS)
    ident_map.update(_BUILTIN_INDEX)
    scoped_map = {h: _pick(h, cs) for h, cs in scoped.items()}
    include_map = {h: _pick_include(h, cs) for h, cs in includes.items()}
    include_map.update(_EXTRA_INCLUDES)
    return ident_map, scoped_map, include_map


@functools.cache
def _scoped_pattern() -> re.Pattern[str] | None:
    _, scoped, _ = reverse_tables()
    if not scoped:
        return None
    alternation = "|".join(re.escape(s) for s in sorted(scoped, key=len, reverse=True))
    return re.compile(rf"(?<![\w:])(?:{alternation})(?!\w)")


def _translate_include(path: str) -> str:
    _, _, include_map = reverse_tables()
    if path in include_map:
        return include_map[path]
    for prefix in ("ATen/hip/", "c10/hip/"):
        if path.startswith(prefix):
            rest = path[len(prefix) :].replace("HIP", "CUDA")
            return prefix.replace("hip", "cuda") + rest
    return path


def _split_call(text: str, open_paren: int) -> tuple[list[str], int] | None:
    """Split the arguments of the call whose `(` is at `open_paren`; return (args, index of `)`).

    Commas nested in (), [], {} or string literals do not split; nor do commas inside the
    template brackets of the first argument (the kernel name, `k<T, 4>`).
    """
    depth, angle, i, start, args = 0, 0, open_paren + 1, open_paren + 1, []
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            end = i + 1
            while end < len(text) and text[end] != ch:
                end += 2 if text[end] == "\\" else 1
            i = end + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                args.append(text[start:i])
                return args, i
            depth -= 1
        elif not args and depth == 0 and ch == "<":
            angle += 1
        elif not args and depth == 0 and ch == ">" and angle:
            angle -= 1
        elif ch == "," and depth == 0 and angle == 0:
            args.append(text[start:i])
            start = i + 1
        i += 1
    return None


def _unwrap(text: str, macro: str) -> str:
    """Replace `MACRO(x)` by `x` (HIP_KERNEL_NAME, HIP_SYMBOL), parentheses-aware."""
    pattern = re.compile(rf"\b{macro}\s*\(")
    while m := pattern.search(text):
        split = _split_call(text, m.end() - 1)
        if split is None:
            break
        args, close = split
        text = text[: m.start()] + ",".join(args).strip() + text[close + 1 :]
    return text


def _strip_parens(expr: str) -> str:
    expr = expr.strip()
    while expr.startswith("(") and expr.endswith(")"):
        split = _split_call(expr, 0)
        if split is None or split[1] != len(expr) - 1:
            break
        expr = expr[1:-1].strip()
    return expr


def _rewrite_launches(text: str, notes: list[PortabilityWarning]) -> str:
    """hipLaunchKernelGGL(k, grid, block, shmem, stream, args...) -> k<<<...>>>(args...)."""
    pattern = re.compile(r"\bhipLaunchKernelGGL\s*\(")
    pos = 0
    while m := pattern.search(text, pos):
        split = _split_call(text, m.end() - 1)
        line = text.count("\n", 0, m.start()) + 1
        if split is None or len(split[0]) < 5:
            notes.append(PortabilityWarning(line, "hipLaunchKernelGGL with fewer than 5 arguments"))
            pos = m.end()
            continue
        args, close = split
        # Keep the arguments' own whitespace so newlines (and macro continuations) stay put.
        kernel = _strip_parens(args[0])
        config = ",".join(args[1:5]).lstrip(" \t")
        call_args = ",".join(args[5:]).lstrip(" \t")
        new = f"{kernel}<<<{config}>>>({call_args})"
        new += "\n" * (text.count("\n", m.start(), close + 1) - new.count("\n"))
        text = text[: m.start()] + new + text[close + 1 :]
        pos = m.start() + len(new)
    return text


def _rewrite_dynamic_shared(text: str) -> str:
    """HIP_DYNAMIC_SHARED(type, name) -> extern __shared__ type name[]; (HIP's has the `;`)."""
    pattern = re.compile(r"\bHIP_DYNAMIC_SHARED\s*\(")
    while m := pattern.search(text):
        split = _split_call(text, m.end() - 1)
        if split is None or len(split[0]) != 2:
            break
        (typ, name), close = split
        text = (
            text[: m.start()]
            + f"extern __shared__ {typ.strip()} {name.strip()}[];"
            + text[close + 1 :]
        )
    return text


def _rename_identifiers(line: str) -> str:
    idents, scoped, _ = reverse_tables()
    line = _NAMESPACE_HIP.sub(r"\1::cuda::", line)
    if (scoped_re := _scoped_pattern()) is not None:
        line = scoped_re.sub(lambda m: scoped[m.group(0)], line)
    return _IDENT.sub(lambda m: idents.get(m.group(0), m.group(0)), line)


def _translate_line(line: str) -> str:
    if m := _INCLUDE.match(line):
        return f"{m.group(1)}{m.group(2)}{_translate_include(m.group(3))}{m.group(4)}{m.group(5)}"
    return _rename_identifiers(line)


def hip_to_cuda(source: str) -> tuple[str, list[PortabilityWarning]]:
    """Translate a HIP source to CUDA; return (CUDA source, portability warnings).

    Line numbers are preserved. The warnings come from the warp-size lint on the HIP source plus
    anything the translation could not handle (a malformed launch, say).
    """
    notes: list[PortabilityWarning] = []
    text = _unwrap(source, "HIP_KERNEL_NAME")
    text = _unwrap(text, "HIP_SYMBOL")
    text = _rewrite_launches(text, notes)
    text = _rewrite_dynamic_shared(text)
    text = _SYNC_CALL_64_MASK.sub(r"\g<1>0xffffffff", text)
    text = _SYNC_INTRINSICS.sub(r"\1_sync(0xffffffff, ", text)
    text = "\n".join(_translate_line(line) for line in text.split("\n"))
    warnings = sorted(check_warp_size(source) + notes, key=lambda w: w.line)
    return text, warnings
