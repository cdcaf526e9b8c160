"""Reference and inputs for the value gradient of causal attention."""

import torch


def _logits(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    S = q.shape[2]
    s = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    causal = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
    return s.masked_fill(~causal, float("-inf"))


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, S, D = config["B"], config["H"], config["S"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Logits with a standard deviation of about 2: weights neither uniform nor one-hot.
    q = torch.randn(B, H, S, D, generator=gen, device=device).mul_(1.4).to(dtype)
    k = torch.randn(B, H, S, D, generator=gen, device=device).mul_(1.4).to(dtype)
    do = torch.randn(B, H, S, D, generator=gen, device=device).to(dtype)
    # The forward pass's row log-sum-exp, per (batch, head) to bound the temporary's size.
    lse = torch.empty(B, H, S, device=device, dtype=torch.float32)
    for b in range(B):
        for h in range(H):
            s = _logits(q[b:b + 1, h:h + 1].float(), k[b:b + 1, h:h + 1].float())
            lse[b, h] = torch.logsumexp(s, dim=-1)[0, 0]
    return (q, k, do, lse)


def reference(q: torch.Tensor, k: torch.Tensor, do: torch.Tensor,
              lse: torch.Tensor) -> torch.Tensor:
    p = torch.softmax(_logits(q, k), dim=-1)
    return p.transpose(-2, -1) @ do
