"""Reference and inputs for the weighted NLL loss task (reduction none, ignore_index -100)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, C = config["M"], config["C"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(M, C, generator=gen, device=device).mul_(2.0)
    logp = torch.log_softmax(logits, dim=-1).to(dtype)
    target = torch.randint(0, C, (M,), generator=gen, device=device, dtype=torch.int64)
    # M // 10 rows, at random places, are padding (ignore_index -100): their loss is 0.
    ignored = torch.randperm(M, generator=gen, device=device)[: M // 10]
    target[ignored] = -100
    weight = torch.rand(C, generator=gen, device=device).mul_(1.9).add_(0.1).to(dtype)
    return (logp, target, weight)


def reference(logp: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.nll_loss(logp, target, weight=weight, ignore_index=-100,
                                        reduction="none")


def exercised(config: dict, logp: torch.Tensor, target: torch.Tensor,
              weight: torch.Tensor) -> dict:
    return {
        "ignored rows (target -100)": bool((target == -100).any()),
        "class weights not all equal": bool((weight != weight[0]).any()),
    }
