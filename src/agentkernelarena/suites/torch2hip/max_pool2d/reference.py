"""Reference and inputs for the 2 x 2, stride 2 max pooling task (NCHW)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    shape = (config["N"], config["C"], config["H"], config["W"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Activations of varied scale and sign per channel.
    scale = torch.rand(1, config["C"], 1, 1, generator=gen, device=device).mul_(2.0).add_(0.1)
    x = torch.randn(shape, generator=gen, device=device).mul_(scale).sub_(0.3)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    H2, W2 = x.shape[2] // 2 * 2, x.shape[3] // 2 * 2
    v = x[:, :, :H2, :W2]
    a = torch.maximum(v[:, :, 0::2, 0::2], v[:, :, 0::2, 1::2])
    b = torch.maximum(v[:, :, 1::2, 0::2], v[:, :, 1::2, 1::2])
    return torch.maximum(a, b).contiguous()
