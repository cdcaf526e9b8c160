"""Reference and inputs for Gumbel-max sampling of next tokens with given noise."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, V = config["B"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(B, V, generator=gen, device=device, dtype=torch.float64).mul_(3.0)
    temperature = torch.rand(B, generator=gen, device=device, dtype=torch.float64) * 1.5 + 0.3
    u = torch.rand(B, V, generator=gen, device=device, dtype=torch.float64).clamp_(1e-12, 1 - 1e-12)
    noise = -torch.log(-torch.log(u))
    logits, temperature, noise = logits.float(), temperature.float(), noise.float()
    # No near-ties: where the best score is within 1e-3 of the runner-up, push the best one's
    # noise up by 2e-3 so the winner does not depend on rounding.
    score = logits.double() / temperature.double()[:, None] + noise.double()
    top2 = score.topk(2, dim=1)
    close = (top2.values[:, 0] - top2.values[:, 1]) < 1e-3
    bump = torch.zeros_like(noise)
    bump.scatter_(1, top2.indices[:, :1], 2e-3)
    noise = torch.where(close[:, None], noise + bump, noise)
    return (logits, temperature, noise)


def reference(logits: torch.Tensor, temperature: torch.Tensor, noise: torch.Tensor):
    return torch.argmax(logits / temperature[:, None] + noise, dim=1)


def exercised(config: dict, logits, temperature, noise) -> dict:
    plain = torch.argmax(logits, dim=1)
    return {"noise changes the winner": bool((reference(logits, temperature, noise)
                                              != plain).any())}
