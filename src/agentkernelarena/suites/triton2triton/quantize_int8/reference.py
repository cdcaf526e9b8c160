"""Reference and inputs for the per-row symmetric int8 quantization task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # Rows with different magnitudes, so that every row gets its own scale.
    row_scale = torch.exp(torch.randn(M, 1, generator=gen, device=device))
    x = (torch.randn(M, N, generator=gen, device=device) * row_scale).to(dtype)
    return (x,)


def reference(x: torch.Tensor) -> tuple:
    xf = x.float()
    scale = xf.abs().amax(dim=1).clamp(min=1e-8) / 127
    q = torch.round(xf / scale[:, None]).clamp(-127, 127).to(torch.int8)
    return (q, scale)
