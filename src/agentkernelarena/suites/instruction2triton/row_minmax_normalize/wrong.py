"""Known-wrong versions of row_minmax_normalize that the task's comparison must reject."""

EPS = 1e-6


def no_eps(x):
    mn = x.amin(-1, keepdim=True)
    return (x - mn) / (x.amax(-1, keepdim=True) - mn)


def max_only(x):
    return x / (x.amax(-1, keepdim=True) + EPS)


def column_wise(x):
    mn = x.amin(0, keepdim=True)
    return (x - mn) / (x.amax(0, keepdim=True) - mn + EPS)


def whole_tensor(x):
    mn = x.amin()
    return (x - mn) / (x.amax() - mn + EPS)
