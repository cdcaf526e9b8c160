"""Known-wrong variants of the residual add + LayerNorm (same arguments as the reference)."""

import torch.nn.functional as F

EPS = 1e-5


def residual_returned(x, residual, w, b):
    # The old residual returned instead of the sum.
    h = x.double() + residual.double()
    return residual, F.layer_norm(h, (h.shape[-1],), w.double(), b.double(), EPS).to(x.dtype)


def norm_of_x_only(x, residual, w, b):
    # The norm taken of the sublayer's output, before the add.
    h = (x.double() + residual.double()).to(x.dtype)
    y = F.layer_norm(x.double(), (x.shape[-1],), w.double(), b.double(), EPS)
    return h, y.to(x.dtype)


def bias_dropped(x, residual, w, b):
    h = (x.double() + residual.double()).to(x.dtype)
    y = F.layer_norm(h.double(), (h.shape[-1],), w.double(), None, EPS)
    return h, y.to(x.dtype)
