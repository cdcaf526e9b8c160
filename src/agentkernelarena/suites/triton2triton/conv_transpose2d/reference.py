"""Reference and inputs for the stride-2 transposed convolution (4 x 4 kernel, padding 1)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, Cin, Cout, H, W = config["N"], config["Cin"], config["Cout"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, Cin, H, W, generator=gen, device=device).to(dtype)
    # Each output gathers 4 taps per input channel: scale for unit-variance outputs.
    w = torch.randn(Cin, Cout, 4, 4, generator=gen, device=device).mul_((4 * Cin) ** -0.5)
    bias = torch.randn(Cout, generator=gen, device=device).mul_(0.5)
    return (x, w.to(dtype), bias.to(dtype))


def _wide(t: torch.Tensor) -> torch.Tensor:
    # 16-bit inputs computed in float32 (the CPU has no 16-bit transposed convolution).
    return t if t.dtype in (torch.float32, torch.float64) else t.float()


def reference(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    out = torch.nn.functional.conv_transpose2d(_wide(x), _wide(w), _wide(bias), stride=2,
                                               padding=1)
    return out.to(x.dtype)
