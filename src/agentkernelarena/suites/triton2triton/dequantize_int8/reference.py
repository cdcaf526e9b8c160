"""Reference and inputs for the per-row int8 dequantization task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    out_dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    q = torch.randint(-127, 128, (M, N), generator=gen, device=device, dtype=torch.int16).to(
        torch.int8
    )
    scale = torch.exp(torch.randn(M, generator=gen, device=device)) / 127
    return (q, scale, out_dtype)


def reference(q: torch.Tensor, scale: torch.Tensor, out_dtype: torch.dtype) -> torch.Tensor:
    return (q.to(scale.dtype) * scale[:, None]).to(out_dtype)
