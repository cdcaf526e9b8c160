"""cuda2cuda/int8_gemm: the entry. Builds kernel.cu (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(a: torch.Tensor, b: torch.Tensor, scale_a: torch.Tensor,
            scale_b: torch.Tensor) -> torch.Tensor:
    return _ext.int8_gemm(a, b, scale_a, scale_b)
