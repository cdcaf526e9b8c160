"""Reference and inputs for EmbeddingBag (mode 'sum', per-sample weights, offsets)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    V, D, N, B = config["V"], config["D"], config["N"], config["B"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    weight = torch.randn(V, D, generator=gen, device=device).to(dtype)
    indices = torch.randint(0, V, (N,), generator=gen, device=device, dtype=torch.int32)
    # Bag boundaries at uniform random cut points; every 8th repeats the one before (empty).
    cuts = torch.sort(torch.randint(0, N + 1, (B - 1,), generator=gen, device=device)).values
    cuts[1::8] = cuts[0::8][:cuts[1::8].numel()].clone()
    offsets = torch.zeros(B + 1, dtype=torch.int64, device=device)
    offsets[1:B] = cuts
    offsets[B] = N
    psw = torch.rand(N, generator=gen, device=device).mul_(1.5).add_(0.25).to(dtype)
    return (weight, indices, offsets.to(torch.int32), psw)


def reference(weight, indices, offsets, per_sample_weights) -> torch.Tensor:
    acc = torch.float64 if weight.dtype == torch.float64 else torch.float32
    out = torch.nn.functional.embedding_bag(indices.long(), weight.to(acc), offsets[:-1].long(),
                                            mode="sum",
                                            per_sample_weights=per_sample_weights.to(acc))
    return out.to(weight.dtype)


def exercised(config: dict, weight, indices, offsets, per_sample_weights) -> dict:
    """The description's rules, seen in these inputs."""
    lengths = offsets[1:] - offsets[:-1]
    return {"empty bags": bool((lengths == 0).any()),
            "bags of several indices": bool((lengths > 1).any())}
