"""Reference and inputs for the PaLM z-loss task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows whose logits have drifted (what the z-loss penalizes): offsets of about +-20, and
    # every 4th row (from row 1) by 90 to 150 either way, where exp(x) without the max shift
    # overflows or underflows float32.
    temp = torch.rand(M, 1, generator=gen, device=device).mul_(3.0).add_(0.5)
    offset = torch.randn(M, 1, generator=gen, device=device).mul_(20.0)
    far = torch.rand(M, 1, generator=gen, device=device).mul_(60.0).add_(90.0)
    far = torch.where(torch.rand(M, 1, generator=gen, device=device) < 0.5, far, -far)
    rows = torch.arange(M, device=device)[:, None]
    offset = torch.where(rows % 4 == 1, far, offset)
    logits = torch.randn(M, V, generator=gen, device=device) * temp + offset
    return (logits.to(dtype), float(config["coef"]))


def reference(logits: torch.Tensor, coef: float) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    lse = torch.logsumexp(logits.to(acc), dim=-1)
    return (coef * lse * lse).to(torch.float32)


def exercised(config: dict, logits: torch.Tensor, coef: float) -> dict:
    return {"row maxima above 88 (exp overflows float32)": bool((logits.float() > 88).any()),
            "rows entirely below -104 (exp underflows float32)":
                bool((logits.float().max(-1).values < -104).any()),
            "negative logsumexp rows": bool((torch.logsumexp(logits.double(), -1) < 0).any())}
