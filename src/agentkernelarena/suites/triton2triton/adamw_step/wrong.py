"""Known-wrong AdamW variants `aka tasks check` must see rejected."""

import math


def _step(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step,
          l2=False, bias_correction=True):
    if l2:
        grad = grad + weight_decay * param      # Adam with L2 regularization, not AdamW
        p = param
    else:
        p = param * (1.0 - lr * weight_decay)
    m = beta1 * exp_avg + (1.0 - beta1) * grad
    v = beta2 * exp_avg_sq + (1.0 - beta2) * grad * grad
    bias1 = 1.0 - beta1 ** step if bias_correction else 1.0
    bias2 = 1.0 - beta2 ** step if bias_correction else 1.0
    p = p - (lr / bias1) * m / (v.sqrt() / math.sqrt(bias2) + eps)
    return (p, m, v)


def l2_weight_decay(*args):
    return _step(*args, l2=True)


def no_bias_correction(*args):
    return _step(*args, bias_correction=False)


def no_weight_decay(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay,
                    step):
    return _step(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, 0.0, step)
