"""${task_id}: the entry. Builds ${source} with binding.cpp (docs/native.md, split mode)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["${source}"], binding="binding.cpp")


def forward(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    return _ext.forward(x, y, alpha)
