"""Reference and inputs for per-row symmetric int8 quantize-dequantize (fake quantization).

The reference computes in float32 whatever dtype it is given (float64 copies of the inputs
hold the same values), since the rounding to int8 steps is part of the function.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # Rows with different magnitudes, so that every row gets its own scale.
    row_scale = torch.exp(torch.randn(M, 1, generator=gen, device=device))
    x = torch.randn(M, N, generator=gen, device=device).mul_(row_scale)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    xf = x.float()
    amax = xf.abs().amax(dim=1, keepdim=True).clamp(min=1e-8)
    # A tensor divisor: with a Python number, PyTorch's CUDA kernel multiplies by the rounded
    # reciprocal instead of dividing, which moves some elements across a rounding boundary.
    scale = amax / torch.full_like(amax, 127.0)
    q = torch.round(xf / scale).clamp(-127, 127)
    return (q * scale).to(x.dtype)
