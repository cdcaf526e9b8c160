"""Reference and inputs for one decode step of the gated delta rule."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, H, DK, DV = config["B"], config["H"], config["DK"], config["DV"]
    gen = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn(B, H, DK, generator=gen, device=device).to(dtype)
    k = torch.randn(B, H, DK, generator=gen, device=device)
    k = (k / k.norm(dim=-1, keepdim=True)).to(dtype)  # the model L2-normalizes k
    v = torch.randn(B, H, DV, generator=gen, device=device).to(dtype)
    alpha = torch.exp(-torch.rand(B, H, generator=gen, device=device) * 0.3)
    beta = torch.sigmoid(torch.randn(B, H, generator=gen, device=device))
    S = torch.randn(B, H, DK, DV, generator=gen, device=device).mul_(0.3)
    return (q, k, v, alpha, beta, S)


def reference(q, k, v, alpha, beta, S):
    acc = S.dtype
    qf, kf, vf = q.to(acc), k.to(acc), v.to(acc)
    S = alpha[..., None, None] * S
    u = vf - torch.einsum("bhij,bhi->bhj", S, kf)
    S = S + beta[..., None, None] * kf[..., :, None] * u[..., None, :]
    o = torch.einsum("bhij,bhi->bhj", S, qf) * q.shape[-1] ** -0.5
    return (o.to(q.dtype), S)
