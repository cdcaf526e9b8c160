"""Known-wrong variant `aka tasks check` must see rejected: the tanh approximation of GELU,
where the task asks for the exact (erf) one."""

import torch


def tanh_gelu(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    n = x.shape[1] // 2
    hidden, gate = x[:, :n].to(acc), x[:, n:].to(acc)
    return (hidden * torch.nn.functional.gelu(gate, approximate="tanh")).to(x.dtype)
