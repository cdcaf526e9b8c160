"""Reference and inputs for the 3x3 / stride 2 / padding 1 max pooling task (NCHW)."""

import torch
import torch.nn.functional as F


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    shape = (config["N"], config["C"], config["H"], config["W"])
    # Zero-mean activations (half of them negative): padding must never win, including in the
    # windows at the borders whose real elements are all negative.
    x = torch.randn(shape, generator=gen, device=device)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return F.max_pool2d(x, kernel_size=3, stride=2, padding=1)


def exercised(config: dict, *inputs) -> dict:
    """The description's rules, seen in this configuration (`aka tasks check`)."""
    (x,) = inputs
    # A border window (top-left output) whose real elements are all negative.
    border = x[:, :, :2, :2].amax(dim=(2, 3))
    return {
        "odd H or W": config["H"] % 2 == 1 or config["W"] % 2 == 1,
        "all-negative border window": bool((border < 0).any()),
    }
