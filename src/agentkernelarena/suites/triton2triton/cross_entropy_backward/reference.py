"""Reference and inputs for the backward pass of per-row cross-entropy with ignore_index."""

import torch

IGNORE_INDEX = -100


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(M, V, generator=gen, device=device).mul_(2.0).to(dtype)
    targets = torch.randint(0, V, (M,), generator=gen, device=device, dtype=torch.int64)
    # About one row in eight is padding (ignore_index), at random positions; the last target
    # class is always used somewhere so that a kernel cannot drop the last column.
    ignored = torch.rand(M, generator=gen, device=device) < 0.125
    targets = torch.where(ignored, torch.full_like(targets, IGNORE_INDEX), targets)
    targets[0] = V - 1
    if M > 1:
        targets[-1] = IGNORE_INDEX  # every configuration has a padding row
    grad_loss = torch.randn(M, generator=gen, device=device).mul_(1.0 / 64)
    return (logits, targets, grad_loss)


def reference(logits: torch.Tensor, targets: torch.Tensor, grad_loss: torch.Tensor):
    keep = targets != IGNORE_INDEX
    probs = torch.softmax(logits.to(grad_loss.dtype), dim=-1)
    onehot = torch.zeros_like(probs)
    onehot[keep, targets[keep]] = 1.0
    scale = torch.where(keep, grad_loss, torch.zeros_like(grad_loss))
    return ((probs - onehot) * scale[:, None]).to(logits.dtype)
