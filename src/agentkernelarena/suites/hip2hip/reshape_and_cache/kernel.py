"""hip2hip/reshape_and_cache: the entry. Builds kernel.hip (editable) with binding.cpp (not
editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(key: torch.Tensor, value: torch.Tensor, k_cache: torch.Tensor,
            v_cache: torch.Tensor, slot_mapping: torch.Tensor) -> tuple:
    return _ext.reshape_and_cache(key, value, k_cache, v_cache, slot_mapping)
