"""Reference and inputs for nucleus (top-p) filtering of sorted next-token probabilities."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, V = config["B"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Zipf-like rows (p_j ~ (j + 1)^-alpha with alpha in [1.3, 2.5], jittered), normalized in
    # float64 and sorted in descending order, as after softmax and a descending sort.
    alpha = torch.rand(B, 1, generator=gen, device=device, dtype=torch.float64) * 1.2 + 1.3
    rank = torch.arange(1, V + 1, device=device, dtype=torch.float64)
    jitter = torch.rand(B, V, generator=gen, device=device, dtype=torch.float64) * 0.4 + 0.8
    w = rank[None, :].pow(-alpha) * jitter
    probs = (w / w.sum(dim=1, keepdim=True)).sort(dim=1, descending=True).values
    # top_p sits halfway inside a token whose probability is at least 1e-3 (or inside the first
    # token): the cut never depends on how the prefix sums are rounded.
    excl = probs.cumsum(dim=1) - probs
    eligible = probs >= 1e-3
    eligible[:, 0] = True
    n_elig = eligible.sum(dim=1)
    pick = (torch.rand(B, generator=gen, device=device, dtype=torch.float64) * n_elig).long()
    pick = pick.clamp(max=n_elig - 1)
    rows = torch.arange(B, device=device)
    top_p = excl[rows, pick] + 0.5 * probs[rows, pick]
    return (probs.to(torch.float32), top_p.to(torch.float32))


def reference(probs: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    excl = probs.cumsum(dim=1) - probs
    keep = excl < top_p[:, None]
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    return kept / kept.sum(dim=1, keepdim=True)


def exercised(config: dict, probs: torch.Tensor, top_p: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs."""
    p = probs.double()
    excl = p.cumsum(dim=1) - p
    kept = (excl < top_p.double()[:, None]).sum(dim=1)
    return {
        "a row keeps only its first token (top_p below its probability)": bool((kept == 1).any()),
        "a row keeps several tokens but not all": bool(((kept > 1) & (kept < p.shape[1])).any()),
    }
