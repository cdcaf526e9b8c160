"""hip2hip/index_add_rows: the entry. Builds kernel.hip (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(base: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    return _ext.index_add_rows(base, index, src)
