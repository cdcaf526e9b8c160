"""Known-wrong versions of row_variance_unbiased that the task's comparison must reject."""



def biased(x):
    return x.var(dim=-1, unbiased=False)


def standard_deviation(x):
    return x.std(dim=-1)


def not_centred(x):
    return (x * x).sum(dim=-1) / (x.shape[-1] - 1)
