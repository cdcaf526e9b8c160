"""Reference and inputs for RoIAlign (aligned=True, sampling_ratio=2), in plain PyTorch."""

import torch

SPATIAL_SCALE = 0.25
SAMPLING = 2


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W, R = config["N"], config["C"], config["H"], config["W"], config["R"]
    gen = torch.Generator(device=device).manual_seed(seed)
    features = torch.randn(N, C, H, W, generator=gen, device=device).to(dtype)
    # Boxes in image coordinates (4x the feature map), from 2 to about 60% of the image on a
    # side, some sticking out past the borders by up to 15% (samples beyond -1 or the far
    # edge count 0).
    img_w, img_h = W / SPATIAL_SCALE, H / SPATIAL_SCALE
    r = torch.rand(R, 5, generator=gen, device=device)
    b = torch.floor(r[:, 0] * N).clamp_(max=N - 1)
    bw = 2.0 / SPATIAL_SCALE + r[:, 1] * 0.6 * img_w
    bh = 2.0 / SPATIAL_SCALE + r[:, 2] * 0.6 * img_h
    x1 = r[:, 3] * (img_w - 0.7 * bw) - 0.15 * bw
    y1 = r[:, 4] * (img_h - 0.7 * bh) - 0.15 * bh
    rois = torch.stack((b, x1, y1, x1 + bw, y1 + bh), dim=1)
    return (features, rois, SPATIAL_SCALE, config["P"])


def _axis(v, size):
    """Clamped low/high indices and weights along one axis, plus the in-range mask."""
    valid = (v >= -1.0) & (v <= size)
    v = v.clamp(min=0.0)
    low = v.floor().long()
    top = low >= size - 1
    low = torch.where(top, torch.full_like(low, size - 1), low)
    high = torch.where(top, low, low + 1)
    v = torch.where(top, low.to(v.dtype), v)
    frac = v - low.to(v.dtype)
    return low, high, 1.0 - frac, frac, valid


def roi_align(features, rois, spatial_scale, P, aligned=True, sampling=SAMPLING):
    N, C, H, W = features.shape
    off = 0.5 if aligned else 0.0
    b = rois[:, 0].long()
    sx = rois[:, 1] * spatial_scale - off
    sy = rois[:, 2] * spatial_scale - off
    rw = rois[:, 3] * spatial_scale - off - sx
    rh = rois[:, 4] * spatial_scale - off - sy
    if not aligned:
        rw, rh = rw.clamp(min=1.0), rh.clamp(min=1.0)
    k = torch.arange(P * sampling, device=rois.device, dtype=rois.dtype)
    frac = (k // sampling) + ((k % sampling) + 0.5) / sampling
    ys = sy[:, None] + frac[None, :] * (rh / P)[:, None]
    xs = sx[:, None] + frac[None, :] * (rw / P)[:, None]
    yl, yh, wyl, wyh, vy = _axis(ys, H)
    xl, xh, wxl, wxh, vx = _axis(xs, W)
    R = rois.shape[0]
    flat = features.reshape(-1)
    inside = (vy[:, :, None] & vx[:, None, :])[:, None]
    wyl, wyh = wyl[:, None, :, None], wyh[:, None, :, None]
    wxl, wxh = wxl[:, None, None, :], wxh[:, None, None, :]
    out = []
    for c0 in range(0, C, 16):  # 16 channels at a time bound the gathered tensors' memory
        ch = torch.arange(c0, min(C, c0 + 16), device=rois.device)
        plane = ((b[:, None] * C + ch[None, :]) * (H * W))[:, :, None, None]

        def gather(yi, xi, plane=plane):
            return flat[plane + (yi[:, None, :, None] * W + xi[:, None, None, :])]

        val = (gather(yl, xl) * (wyl * wxl) + gather(yl, xh) * (wyl * wxh)
               + gather(yh, xl) * (wyh * wxl) + gather(yh, xh) * (wyh * wxh))
        val = val * inside
        out.append(val.reshape(R, -1, P, sampling, P, sampling).mean(dim=(3, 5)))
    return torch.cat(out, dim=1).to(features.dtype)


def reference(features, rois, spatial_scale, P):
    return roi_align(features, rois, spatial_scale, P)


def exercised(config: dict, features, rois, spatial_scale, P) -> dict:
    H, W = features.shape[2], features.shape[3]
    r = rois.double()
    return {
        "some rois extend past the left or top border":
            bool(((r[:, 1] * spatial_scale - 0.5 < -1) | (r[:, 2] * spatial_scale - 0.5 < -1))
                 .any()),
        "some rois extend past the right or bottom border":
            bool(((r[:, 3] * spatial_scale > W) | (r[:, 4] * spatial_scale > H)).any()),
        "rois sample more than one image": bool(r[:, 0].unique().numel() > 1)
            or features.shape[0] == 1,
    }
