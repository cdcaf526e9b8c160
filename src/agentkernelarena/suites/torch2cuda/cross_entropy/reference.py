"""Reference and inputs for per-row cross-entropy with an ignore index.

loss[m] = logsumexp(logits[m, :]) - logits[m, targets[m]], or 0 where targets[m] == -100;
float32 (float64 for float64 inputs) whatever the logits' dtype.

About one target in eight is -100 (and, with several rows, always the last one, never the
first).
"""

import torch

IGNORE_INDEX = -100


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(M, V, generator=gen, device=device).mul_(3.0).add_(1.0).to(dtype)
    targets = torch.randint(0, V, (M,), generator=gen, device=device, dtype=torch.int64)
    ignored = torch.rand(M, generator=gen, device=device) < 0.125
    if M > 1:
        ignored[0] = False
        ignored[M - 1] = True
    return (logits, targets.masked_fill(ignored, IGNORE_INDEX))


def reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    lf = logits.to(acc)
    keep = targets != IGNORE_INDEX
    picked = lf.gather(1, targets.clamp(min=0)[:, None])[:, 0]
    loss = torch.logsumexp(lf, dim=-1) - picked
    return torch.where(keep, loss, torch.zeros_like(loss))


def exercised(config: dict, logits: torch.Tensor, targets: torch.Tensor) -> dict:
    """The description's rule, seen in these inputs: some targets are ignored, some not."""
    ignored = targets == IGNORE_INDEX
    return {"an ignored target": bool(ignored.any()), "a scored target": bool((~ignored).any())}
