"""Reference and inputs for the repetition penalty applied to next-token logits."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, V, T = config["B"], config["V"], config["T"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(B, V, generator=gen, device=device).mul_(4.0).to(dtype)
    penalty = torch.rand(B, generator=gen, device=device) * 0.9 + 1.1
    # Histories of the last V - 1 token ids (the last id of the vocabulary never occurs, so a
    # padding id -1 read as a Python index would show): the second half of each history repeats
    # ids of the first half, and every row ends with some padding (-1).
    first = torch.randint(0, V - 1, (B, (T + 1) // 2), generator=gen, device=device)
    pick = torch.randint(0, first.shape[1], (B, T // 2), generator=gen, device=device)
    history = torch.cat([first, first.gather(1, pick)], dim=1)
    history = history.gather(1, torch.argsort(torch.rand(B, T, generator=gen, device=device), 1))
    lengths = T - torch.randint(0, max(T // 4, 1) + 1, (B,), generator=gen, device=device)
    lengths[0] = T - 1
    pad = torch.arange(T, device=device)[None, :] >= lengths[:, None]
    history = torch.where(pad, torch.full_like(history, -1), history)
    return (logits, history, penalty)


def reference(logits: torch.Tensor, history: torch.Tensor, penalty: torch.Tensor):
    B, V = logits.shape
    ids = torch.where(history < 0, torch.full_like(history, V), history)
    seen = torch.zeros(B, V + 1, dtype=torch.bool, device=logits.device)
    seen.scatter_(1, ids, True)
    seen = seen[:, :V]
    p = penalty.to(logits.dtype)[:, None]
    penalized = torch.where(logits > 0, logits / p, logits * p)
    return torch.where(seen, penalized, logits)


def exercised(config: dict, logits, history, penalty) -> dict:
    ids = history[history >= 0]
    rows = history[0][history[0] >= 0]
    vals = logits[0][rows]
    return {
        "repeated ids in a history": rows.unique().numel() < rows.numel(),
        "padding ids (-1)": bool((history < 0).any()),
        "positive and negative penalized logits": bool((vals > 0).any() and (vals < 0).any()),
        "ids in range": bool(ids.numel() > 0),
    }
