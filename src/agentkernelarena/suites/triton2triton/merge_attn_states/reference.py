"""Reference and inputs for merging two partial attention results by their log-sum-exp."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, H, D = config["T"], config["H"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    prefix_out = torch.randn(T, H, D, generator=gen, device=device).to(dtype)
    suffix_out = torch.randn(T, H, D, generator=gen, device=device).to(dtype)
    prefix_lse = torch.randn(T, H, generator=gen, device=device).mul_(3.0).add_(5.0)
    suffix_lse = torch.randn(T, H, generator=gen, device=device).mul_(3.0).add_(5.0)
    # Some (token, head) pairs have an empty prefix or an empty suffix (lse = -inf), never both.
    empty = torch.rand(T, H, generator=gen, device=device)
    prefix_lse = torch.where(empty < 0.05, torch.full_like(prefix_lse, float("-inf")), prefix_lse)
    suffix_lse = torch.where(empty > 0.95, torch.full_like(suffix_lse, float("-inf")), suffix_lse)
    if T * H > 1:  # every configuration has both kinds of empty part
        finite = torch.randn(2, generator=gen, device=device).mul_(3.0).add_(5.0)
        prefix_lse.view(-1)[0], suffix_lse.view(-1)[0] = float("-inf"), finite[0]
        prefix_lse.view(-1)[-1], suffix_lse.view(-1)[-1] = finite[1], float("-inf")
    return (prefix_out, prefix_lse, suffix_out, suffix_lse)


def reference(prefix_out, prefix_lse, suffix_out, suffix_lse):
    m = torch.maximum(prefix_lse, suffix_lse)
    wp = torch.exp(prefix_lse - m)
    ws = torch.exp(suffix_lse - m)
    total = wp + ws
    out = (wp[..., None] * prefix_out.to(m.dtype) + ws[..., None] * suffix_out.to(m.dtype))
    out = out / total[..., None]
    return (out.to(prefix_out.dtype), m + torch.log(total))
