"""Reference and inputs for the log-softmax task: y = x - max(x) - log(sum(exp(x - max(x))))."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Logits with a per-row offset (log-softmax must not depend on it, which a kernel that
    # skips the max subtraction gets wrong in float16) and a spread like a language model's.
    offset = torch.randn(config["M"], 1, generator=gen, device=device).mul_(4.0)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(3.0).add_(offset)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    shifted = xf - xf.amax(-1, keepdim=True)
    return (shifted - shifted.exp().sum(-1, keepdim=True).log()).to(x.dtype)
