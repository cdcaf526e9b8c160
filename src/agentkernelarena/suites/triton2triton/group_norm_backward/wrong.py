"""Known-wrong variants of the GroupNorm backward: the xhat * mean(g * xhat) term of dx left
out, and the group means taken over dy instead of weight * dy."""


def _parts(x, dy, weight, mean, rstd):
    B, C, HW = x.shape
    G = mean.shape[1]
    xhat = (x.reshape(B, G, C // G, HW) - mean[:, :, None, None]) * rstd[:, :, None, None]
    dyg = dy.reshape(B, G, C // G, HW)
    g = weight.reshape(1, G, C // G, 1) * dyg
    dweight = (dyg * xhat).sum(dim=(0, 3)).reshape(C)
    dbias = dyg.sum(dim=(0, 3)).reshape(C)
    return xhat, dyg, g, dweight, dbias


def no_xhat_term(x, dy, weight, mean, rstd):
    xhat, dyg, g, dweight, dbias = _parts(x, dy, weight, mean, rstd)
    dx = rstd[:, :, None, None] * (g - g.mean(dim=(2, 3), keepdim=True))
    return (dx.reshape(x.shape).to(x.dtype), dweight.to(x.dtype), dbias.to(x.dtype))


def weight_left_out_of_means(x, dy, weight, mean, rstd):
    xhat, dyg, g, dweight, dbias = _parts(x, dy, weight, mean, rstd)
    c1 = dyg.mean(dim=(2, 3), keepdim=True)
    c2 = (dyg * xhat).mean(dim=(2, 3), keepdim=True)
    dx = rstd[:, :, None, None] * (g - c1 - xhat * c2)
    return (dx.reshape(x.shape).to(x.dtype), dweight.to(x.dtype), dbias.to(x.dtype))
