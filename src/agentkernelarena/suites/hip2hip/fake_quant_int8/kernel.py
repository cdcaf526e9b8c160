"""hip2hip/fake_quant_int8: the entry. Builds kernel.hip (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(x: torch.Tensor) -> torch.Tensor:
    return _ext.fake_quant_int8(x)
