"""Known-wrong versions of outer_product_scale that the task's comparison must reject."""


def unscaled(a, b, s):
    return a[:, None] * b[None, :]


def divided_by_s(a, b, s):
    return a[:, None] * b[None, :] / s
