"""Reference and inputs for MoE gating: softmax over the experts, top-k, renormalization."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, E, K = config["T"], config["E"], config["K"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Distinct logits in every row (no ties): E distinct multiples of 1/32 in [-R/32, R/32),
    # a random subset cyclically shifted per row and scattered over the experts. R <= 256
    # keeps them exact in bfloat16, R <= 1024 in float16.
    R = max(256, E)
    base = torch.randperm(2 * R, generator=gen, device=device)[:E]
    shift = torch.randint(0, 2 * R, (T, 1), generator=gen, device=device)
    vals = (base[None, :] + shift) % (2 * R) - R
    order = torch.rand(T, E, generator=gen, device=device).argsort(-1)
    logits = vals.gather(1, order).to(torch.float32).div_(32)
    # The outputs, preallocated as vLLM's caller does (stale contents); the kernel fills them.
    topk_weights = torch.rand(T, K, generator=gen, device=device)
    topk_ids = torch.full((T, K), -1, dtype=torch.int32, device=device)
    return (logits.to(dtype), topk_weights, topk_ids)


def reference(logits: torch.Tensor, topk_weights: torch.Tensor,
              topk_ids: torch.Tensor) -> tuple:
    top_k = topk_ids.shape[1]
    acc = torch.float64 if logits.dtype == torch.float64 else torch.float32
    p = torch.softmax(logits.to(acc), dim=-1)
    w, ids = torch.topk(p, top_k, dim=-1)
    return (w / w.sum(-1, keepdim=True), ids.to(torch.int32))


def exercised(config: dict, logits, topk_weights, topk_ids) -> dict:
    E = config["E"]
    return {"E not a power of two": E & (E - 1) != 0, "K > 1": topk_ids.shape[1] > 1}
