"""Reference and inputs for the local response normalization (across channels) task."""

import torch
import torch.nn.functional as F

ALPHA = 1.0
BETA = 0.75
K = 2.0


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = config["N"], config["C"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Each (sample, channel) plane has its own spread (0.3 to 2.8): the window sums vary.
    scale = torch.rand(N, C, 1, 1, generator=gen, device=device).mul_(2.5).add_(0.3)
    x = torch.randn(N, C, H, W, generator=gen, device=device).mul_(scale)
    return (x.to(dtype), int(config["window"]), ALPHA, BETA, K)


def reference(x: torch.Tensor, size: int, alpha: float, beta: float, k: float) -> torch.Tensor:
    # torch.nn.functional.local_response_norm written out (its avg_pool3d has no 16-bit CPU
    # kernel): the squares padded with size // 2 zero channels below and (size - 1) // 2 above,
    # averaged over size channels (the padding counted), then x / (k + alpha * avg)^beta.
    xf = x if x.dtype == torch.float64 else x.float()
    C = x.shape[1]
    sq = F.pad(xf * xf, (0, 0, 0, 0, size // 2, (size - 1) // 2))
    avg = sum(sq[:, j:j + C] for j in range(size)) / size
    return (xf / (avg * alpha + k) ** beta).to(x.dtype)


def exercised(config: dict, x, size, alpha, beta, k) -> dict:
    return {"an even window size (asymmetric window)": size % 2 == 0,
            "a window clipped at both channel edges": x.shape[1] >= 2 and size >= 3}
