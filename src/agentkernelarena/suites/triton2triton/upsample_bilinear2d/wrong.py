"""Known-wrong variants of the bilinear resampling: align_corners=True, and align_corners=False
without clamping the negative source coordinates of the first rows and columns to 0
(extrapolating there instead)."""

import torch


def align_corners(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    return torch.nn.functional.interpolate(x, size=(out_h, out_w), mode="bilinear",
                                           align_corners=True)


def _taps(n_in: int, n_out: int, dtype: torch.dtype, device: torch.device):
    src = (torch.arange(n_out, dtype=dtype, device=device) + 0.5) * (n_in / n_out) - 0.5
    i0 = src.trunc().long().clamp(0, n_in - 1)  # truncation towards zero, no clamp of src
    lam = src - i0.to(dtype)
    i1 = (i0 + 1).clamp(max=n_in - 1)
    return i0, i1, lam


def unclamped_source(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    H, W = x.shape[-2:]
    h0, h1, lh = _taps(H, out_h, x.dtype, x.device)
    w0, w1, lw = _taps(W, out_w, x.dtype, x.device)
    top = x[..., h0, :] * (1 - lh)[:, None] + x[..., h1, :] * lh[:, None]
    return top[..., w0] * (1 - lw) + top[..., w1] * lw
