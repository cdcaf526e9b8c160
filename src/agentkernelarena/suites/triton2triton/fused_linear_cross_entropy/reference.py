"""Reference and inputs for the LM-head projection fused with the per-token cross-entropy."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, H, V = config["M"], config["H"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, H, generator=gen, device=device).to(dtype)
    # Logits with a standard deviation of about 2.
    w = torch.randn(V, H, generator=gen, device=device).mul_(2.0 * H**-0.5).to(dtype)
    targets = torch.randint(0, V, (M,), generator=gen, device=device, dtype=torch.int64)
    targets[0] = V - 1
    return (x, w, targets)


def reference(x: torch.Tensor, w: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    logits = x.to(acc) @ w.to(acc).T
    loss = torch.logsumexp(logits, dim=-1) - logits.gather(1, targets[:, None])[:, 0]
    return loss.to(torch.float32)
