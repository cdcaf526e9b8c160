"""Known-wrong versions of gemv_bias that the task's comparison must reject."""



def bias_ignored(w, x, b):
    return w @ x


def bias_twice(w, x, b):
    return w @ x + 2 * b


def partial_k_block_dropped(w, x, b):
    # A kernel that sums only whole blocks of 128 along K (the remainder forgotten).
    k = w.shape[1] - w.shape[1] % 128
    return w[:, :k] @ x[:k] + b
