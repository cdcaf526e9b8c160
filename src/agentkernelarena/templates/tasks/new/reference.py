"""${task_id}: the reference and the inputs. Edit both for your operator.

make_inputs must give the same shapes and dtypes for every seed, random and non-degenerate
contents that depend on the seed, made on `device` (docs/task-format.md).
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["N"], generator=gen, device=device).to(dtype)
    y = torch.randn(config["N"], generator=gen, device=device).to(dtype)
    return (x, y, 1.5)


def reference(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    """out = x * alpha + y, in plain PyTorch (run on float64 copies of x and y)."""
    return x * alpha + y
