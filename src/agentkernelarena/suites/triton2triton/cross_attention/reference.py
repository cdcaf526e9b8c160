"""Reference and inputs for encoder-decoder cross-attention with padded encoder outputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, LQ, LK, D = (config[k] for k in ("B", "H", "LQ", "LK", "D"))
    gen = torch.Generator(device=device).manual_seed(seed)
    # Logits with a standard deviation of about 2: weights neither uniform nor one-hot.
    q = torch.randn(B, H, LQ, D, generator=gen, device=device).mul_(1.4).to(dtype)
    k = torch.randn(B, H, LK, D, generator=gen, device=device).mul_(1.4).to(dtype)
    v = torch.randn(B, H, LK, D, generator=gen, device=device).to(dtype)
    # Valid lengths in [ceil(LK / 2), LK]; the last batch element is full, the first (if there
    # are two or more) is padded.
    lo = (LK + 1) // 2
    kv_lens = torch.randint(lo, LK + 1, (B,), generator=gen, device=device, dtype=torch.int32)
    kv_lens[-1] = LK
    if B > 1:
        kv_lens[0] = torch.randint(lo, max(lo + 1, LK), (1,), generator=gen, device=device)
    return (q, k, v, kv_lens)


def attend(q, k, v, kv_lens):
    LK = k.shape[2]
    scores = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    pad = torch.arange(LK, device=q.device)[None, :] >= kv_lens.to(q.device)[:, None]  # (B, LK)
    scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
              kv_lens: torch.Tensor) -> torch.Tensor:
    return attend(q, k, v, kv_lens)


def exercised(config, q, k, v, kv_lens) -> dict:
    LK = k.shape[2]
    return {"a padded batch element (kv_lens < LK)": bool((kv_lens < LK).any()),
            "LQ differs from LK": q.shape[2] != LK}
