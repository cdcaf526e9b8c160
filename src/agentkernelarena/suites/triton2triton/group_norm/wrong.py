"""Known-wrong GroupNorm variants `aka tasks check` must see rejected."""


EPS = 1e-5


def _norm(x, weight, bias, groups, unbiased=False):
    B, C, HW = x.shape
    xg = x.reshape(B, groups, -1)
    mean = xg.mean(dim=-1, keepdim=True)
    var = xg.var(dim=-1, keepdim=True, unbiased=unbiased)
    y = (xg - mean) / (var + EPS).sqrt()
    return y.reshape(B, C, HW) * weight[None, :, None] + bias[None, :, None]


def unbiased_variance(x, weight, bias, groups):
    return _norm(x, weight, bias, groups, unbiased=True)


def per_channel_statistics(x, weight, bias, groups):
    """Instance norm: statistics over each channel instead of each group of channels."""
    return _norm(x, weight, bias, x.shape[1])
