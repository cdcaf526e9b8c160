"""cuda2cuda/layernorm: the entry. Builds kernel.cu (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _ext.layernorm(x, w, b, 1e-5)
