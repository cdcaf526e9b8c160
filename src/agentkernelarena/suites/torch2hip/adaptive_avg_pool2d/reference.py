"""Reference and inputs for the adaptive average pooling to 7 x 7 (NCHW)."""

import torch

OUT = 7


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    shape = (config["N"], config["C"], config["H"], config["W"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Post-ReLU-like activations of varied scale per channel, with some negative values left.
    scale = torch.rand(1, config["C"], 1, 1, generator=gen, device=device).mul_(2.0).add_(0.2)
    x = torch.randn(shape, generator=gen, device=device).add_(0.7).mul_(scale)
    return (x.to(dtype),)


def _bounds(size: int) -> list[tuple[int, int]]:
    return [(i * size // OUT, -(-(i + 1) * size // OUT)) for i in range(OUT)]


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    rows = [xf[:, :, h0:h1].mean(dim=2) for h0, h1 in _bounds(x.shape[2])]
    cols = [torch.stack([r[:, :, w0:w1].mean(dim=2) for w0, w1 in _bounds(x.shape[3])], dim=-1)
            for r in rows]
    return torch.stack(cols, dim=2).to(x.dtype)
