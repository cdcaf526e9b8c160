"""torch2cuda/masked_softmax: the PyTorch eager baseline (a masked softmax as attention and
pointer-network code writes it: masked positions filled with -inf, softmax in float32, rows with
no unmasked position, which softmax turns into NaN, set to zero, cast back)."""

import torch


def forward(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    scores = x.float().masked_fill(mask, float("-inf"))
    p = torch.softmax(scores, dim=-1)
    p = p.masked_fill(mask.all(dim=-1, keepdim=True), 0.0)
    return p.to(x.dtype)
