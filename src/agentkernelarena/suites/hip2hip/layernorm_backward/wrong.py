"""Known-wrong variants of the LayerNorm backward: dx without the mean(g * xhat) term (the
gradient of a mean-only normalization), and dgamma summed from dy * x instead of dy * xhat."""


def dx_without_variance_term(dy, x, weight, mean, rstd):
    dyf, xf, wf = dy.double(), x.double(), weight.double()
    mu, rs = mean.double()[:, None], rstd.double()[:, None]
    xhat = (xf - mu) * rs
    g = dyf * wf
    dx = rs * (g - g.mean(-1, keepdim=True))
    return (dx.to(x.dtype), (dyf * xhat).sum(0), dyf.sum(0))


def dgamma_from_x(dy, x, weight, mean, rstd):
    dyf, xf, wf = dy.double(), x.double(), weight.double()
    mu, rs = mean.double()[:, None], rstd.double()[:, None]
    xhat = (xf - mu) * rs
    g = dyf * wf
    dx = rs * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))
    return (dx.to(x.dtype), (dyf * xf).sum(0), dyf.sum(0))
