"""Reference and inputs for the int8 matrix product with int32 sums and float32 scales."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N, K = config["M"], config["N"], config["K"]
    # The full int8 range, -128 included.
    a = torch.randint(-128, 128, (M, K), generator=gen, device=device, dtype=torch.int32)
    b = torch.randint(-128, 128, (K, N), generator=gen, device=device, dtype=torch.int32)
    # Per-row (activation) and per-column (weight) dequantization scales.
    scale_a = torch.rand(M, generator=gen, device=device).add_(0.5).mul_(0.01)
    scale_b = torch.rand(N, generator=gen, device=device).add_(0.5).mul_(0.01 * K**-0.5)
    return (a.to(torch.int8), b.to(torch.int8), scale_a, scale_b)


def reference(a: torch.Tensor, b: torch.Tensor, scale_a: torch.Tensor,
              scale_b: torch.Tensor) -> torch.Tensor:
    # The int32 sums are exact in float64 (|sums| < 2^53); integer matmul is not available on
    # every device. Then float32, as a kernel converts them, and the scales.
    acc = (a.double() @ b.double()).float().to(scale_a.dtype)
    return acc * scale_a[:, None] * scale_b[None, :]
