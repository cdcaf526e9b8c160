"""Known-wrong variants `aka tasks check` must see rejected: the bias added after the ReLU, and
each weight row read back to front (an index slip in the inner loop)."""

import torch


def bias_after_relu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    return (torch.relu(x.to(acc) @ weight.to(acc).t()) + bias.to(acc)).to(x.dtype)


def rows_summed_in_reverse(x: torch.Tensor, weight: torch.Tensor,
                           bias: torch.Tensor) -> torch.Tensor:
    # The weight row read back to front (k -> K - 1 - k): a stride slip in the inner loop.
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = x.to(acc) @ weight.to(acc).flip(-1).t() + bias.to(acc)
    return torch.relu(y).to(x.dtype)
