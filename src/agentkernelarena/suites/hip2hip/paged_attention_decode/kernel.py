"""hip2hip/paged_attention_decode: the entry. Builds kernel.hip (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
            block_tables: torch.Tensor, context_lens: torch.Tensor) -> torch.Tensor:
    return _ext.paged_attention_decode(q, k_cache, v_cache, block_tables, context_lens)
