"""Known-wrong variants of adaptive average pooling: uniform windows (stride H // OH, kernel
H - (OH - 1) * stride, the usual avg_pool2d shortcut, right only when OH divides H), and
window ends rounded down instead of up."""

import torch


def uniform_windows(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    H, W = x.shape[-2:]
    sh, sw = H // out_h, W // out_w
    kh, kw = H - (out_h - 1) * sh, W - (out_w - 1) * sw
    return torch.nn.functional.avg_pool2d(x, (kh, kw), stride=(sh, sw))


def floor_end(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    H, W = x.shape[-2:]
    out = torch.empty(*x.shape[:2], out_h, out_w, dtype=x.dtype, device=x.device)
    for i in range(out_h):
        h0, h1 = (i * H) // out_h, max((i + 1) * H // out_h, (i * H) // out_h + 1)
        for j in range(out_w):
            w0, w1 = (j * W) // out_w, max((j + 1) * W // out_w, (j * W) // out_w + 1)
            out[:, :, i, j] = x[:, :, h0:h1, w0:w1].mean(dim=(-2, -1))
    return out
