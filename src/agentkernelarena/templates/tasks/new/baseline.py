"""${task_id}: the PyTorch operator the agent replaces (what the candidate is timed against)."""

import torch


def forward(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    return x * alpha + y
