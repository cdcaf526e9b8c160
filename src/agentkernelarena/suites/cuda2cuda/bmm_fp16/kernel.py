"""cuda2cuda/bmm_fp16: the entry. Builds kernel.cu (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _ext.bmm_fp16(a, b)
