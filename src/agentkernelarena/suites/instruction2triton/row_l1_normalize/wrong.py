"""Known-wrong versions of row_l1_normalize that the task's comparison must reject."""



def no_eps(x):
    return x / x.abs().sum(dim=-1, keepdim=True)


def l2_norm(x):
    return x / x.norm(dim=-1, keepdim=True).clamp_min(1e-12)


def mean_abs(x):
    return x / x.abs().mean(dim=-1, keepdim=True).clamp_min(1e-12)
