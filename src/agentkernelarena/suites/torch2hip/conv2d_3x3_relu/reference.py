"""Reference and inputs for relu(conv2d(x, w, b, padding=1)) with a 3 x 3 kernel (NCHW)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, Cin, Cout, H, W = config["N"], config["Cin"], config["Cout"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, Cin, H, W, generator=gen, device=device)
    # Kaiming-like weights: the pre-activation is about N(0, 1).
    w = torch.randn(Cout, Cin, 3, 3, generator=gen, device=device).mul_((9 * Cin) ** -0.5)
    b = torch.randn(Cout, generator=gen, device=device).mul_(0.2)
    return (x.to(dtype), w.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = torch.nn.functional.conv2d(x.to(acc), w.to(acc), b.to(acc), padding=1)
    return torch.relu(y).to(x.dtype)
