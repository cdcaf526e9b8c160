"""Reference and inputs for the row L2 normalization task (F.normalize semantics)."""

import torch

EPS = 1e-12


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(3.0).add_(0.1)
    scale[2::9] = 0.0          # all-zero rows: the output row is zero
    scale[5::9] = 1.0e-15      # norm below eps: divided by eps (float32 and bfloat16 keep them)
    x = (torch.randn(M, N, generator=gen, device=device).add_(0.3) * scale).to(dtype)
    return (x,)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.normalize(x, p=2.0, dim=-1, eps=EPS)


def exercised(config: dict, x: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs (`aka tasks check`)."""
    norm = x.double().norm(dim=-1)
    return {"an all-zero row": bool((norm == 0).any()),
            "a nonzero row with norm below eps": bool(((norm > 0) & (norm < EPS)).any())}
