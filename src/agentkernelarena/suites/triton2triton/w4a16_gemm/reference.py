"""Reference and inputs for the int4 weight-only (W4A16) GEMM task."""

import torch

GROUP = 128


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, KG = config["M"], config["N"], config["KG"]
    K = KG * GROUP
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).to(dtype)
    w_packed = torch.randint(0, 256, (N, K // 2), generator=gen, device=device,
                             dtype=torch.int32).to(torch.uint8)
    # Codes - 8 have a standard deviation of about 4.6; positive scales varying by 3x between
    # groups give x @ W^T unit scale.
    scales = (torch.rand(N, KG, generator=gen, device=device) + 0.5).mul_(K**-0.5 / 4.6)
    return (x, w_packed, scales.to(dtype))


def dequantize(w_packed: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """The N x K weight in scales' dtype."""
    low = (w_packed & 0xF).to(scales.dtype)
    high = (w_packed >> 4).to(scales.dtype)
    codes = torch.stack((low, high), dim=-1).flatten(1)
    return (codes - 8) * scales.repeat_interleave(GROUP, dim=1)


def reference(x: torch.Tensor, w_packed: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    return x @ dequantize(w_packed, scales).T
