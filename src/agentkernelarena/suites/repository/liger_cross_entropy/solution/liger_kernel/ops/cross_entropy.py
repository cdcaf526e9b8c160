"""Cross-entropy for liger-kernel: per-token losses, z-loss, label smoothing, class weights,
soft-capping, accuracy and argmax, and the gradient written over the logits in place.

The AgentKernelArena solution of repository/liger_cross_entropy, written for the arena (not taken
from upstream): the same public functions, kernel signature (fused_linear_cross_entropy.py calls
`liger_cross_entropy_kernel` by keyword) and autograd class as liger-kernel 0.8.5's module.

What is faster: the library's forward synchronizes with the host three times before it launches
the kernel (`.item()` of the count of non-ignored targets, and two asserts on tensors), each
leaving the GPU idle while the host waits, plus one more `.item()` per weight statistic. Here the
counts and sums stay on the device (the kernel reads them through pointers, `SCALARS_ON_DEVICE`),
the target bounds are checked with `torch._assert_async` (a device-side assertion instead of a
Python AssertionError: the same inputs are refused, asynchronously), nothing is computed that the
options do not need, and the loss buffer is not zero-filled (the kernel writes every row).
"""


import torch
import triton
import triton.language as tl
from liger_kernel.ops.utils import element_mul_kernel, is_hip
from liger_kernel.utils import infer_device, infer_device_arch

_LOG2_E = tl.constexpr(1.4426950408889634)

if infer_device() == "xpu":
    MAX_FUSED_SIZE = 4096
elif infer_device() == "npu":
    MAX_FUSED_SIZE = 2048
else:
    MAX_FUSED_SIZE = 65536 // 2


@triton.jit
def _tanh(x):
    # tanh from the sigmoid: one exp, and it runs under Triton's CPU interpreter
    return 2.0 * tl.sigmoid(2.0 * x) - 1.0


@triton.jit
def liger_cross_entropy_kernel(
    X_ptr,
    X_stride,
    Y_ptr,
    Y_stride,
    weight_ptr,
    loss_ptr,
    z_loss_ptr,
    loss_stride,
    token_accuracy_ptr,
    token_accuracy_stride,
    predicted_tokens_ptr,
    predicted_tokens_stride,
    n_cols,
    n_non_ignore,
    sum_non_ignore_weight,
    weight_sum,
    ignore_index,
    lse_square_scale: tl.constexpr,
    label_smoothing: tl.constexpr,
    reduction: tl.constexpr,
    softcap,
    RETURN_Z_LOSS: tl.constexpr,
    RETURN_TOKEN_ACCURACY: tl.constexpr,
    RETURN_PREDICTED_TOKENS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    HAS_WEIGHT: tl.constexpr,
    HAS_SOFTCAPPING: tl.constexpr,
    HAS_GRADIENTS: tl.constexpr,
    SCALARS_ON_DEVICE: tl.constexpr = False,
):
    """One program per row: an online logsumexp pass (max, rescaled sum, argmax, the smoothing
    sum), the loss, and with HAS_GRADIENTS a second pass writing d loss / d logits over the row.
    With SCALARS_ON_DEVICE, n_non_ignore, sum_non_ignore_weight and weight_sum are pointers to
    float32 scalars instead of numbers."""
    row = tl.program_id(0).to(tl.int64)
    X_ptr += row * X_stride
    y = tl.load(Y_ptr + row * Y_stride)

    if y == ignore_index:
        if HAS_GRADIENTS:
            for start in range(0, n_cols, BLOCK_SIZE):
                cols = start + tl.arange(0, BLOCK_SIZE)
                tl.store(X_ptr + cols, 0.0, mask=cols < n_cols)
        tl.store(loss_ptr + row * loss_stride, 0.0)
        if RETURN_Z_LOSS:
            tl.store(z_loss_ptr + row * loss_stride, 0.0)
        if RETURN_TOKEN_ACCURACY:
            tl.store(token_accuracy_ptr + row * token_accuracy_stride, 0.0)
        if RETURN_PREDICTED_TOKENS:
            tl.store(predicted_tokens_ptr + row * predicted_tokens_stride, -1)
        return

    if SCALARS_ON_DEVICE:
        count = tl.load(n_non_ignore).to(tl.float32)
        sum_weight = tl.load(sum_non_ignore_weight).to(tl.float32)
        total_weight = tl.load(weight_sum).to(tl.float32)
    else:  # numbers (fused_linear_cross_entropy passes them), as float32 whatever they came as
        count = tl.full((), n_non_ignore, tl.float32)
        sum_weight = tl.full((), sum_non_ignore_weight, tl.float32)
        total_weight = tl.full((), weight_sum, tl.float32)
    if HAS_WEIGHT:
        weight_y = tl.load(weight_ptr + y).to(tl.float32)
    if HAS_SOFTCAPPING:
        cap = tl.full((), softcap, tl.float32)

    x_y = tl.load(X_ptr + y).to(tl.float32)
    if HAS_SOFTCAPPING:
        x_y = cap * _tanh(x_y / cap)

    eps = label_smoothing / n_cols
    m = float("-inf")
    d = 0.0
    best = 0
    smooth_sum = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        inside = cols < n_cols
        x = tl.load(X_ptr + cols, mask=inside, other=float("-inf")).to(tl.float32)
        if HAS_SOFTCAPPING:
            x = tl.where(inside, cap * _tanh(x / cap), float("-inf"))
        block_max = tl.max(x, 0)
        if RETURN_TOKEN_ACCURACY or RETURN_PREDICTED_TOKENS:
            first = tl.min(tl.where(x == block_max, cols, n_cols), 0)
            best = tl.where(block_max > m, first, best)
        if label_smoothing > 0:
            if HAS_WEIGHT:
                w = tl.load(weight_ptr + cols, mask=inside, other=0.0).to(tl.float32)
                smooth_sum += tl.sum(tl.where(inside, -eps * x * w, 0.0), 0)
            else:
                smooth_sum += tl.sum(tl.where(inside, -eps * x, 0.0), 0)
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp2((m - m_new) * _LOG2_E) + tl.sum(tl.exp2((x - m_new) * _LOG2_E), 0)
        m = m_new
    lse = m + tl.log(d)

    if HAS_GRADIENTS:
        for start in range(0, n_cols, BLOCK_SIZE):
            cols = start + tl.arange(0, BLOCK_SIZE)
            inside = cols < n_cols
            x = tl.load(X_ptr + cols, mask=inside, other=float("-inf")).to(tl.float32)
            if HAS_SOFTCAPPING:
                t = _tanh(x / cap)
                x = cap * t
            p = tl.exp2((x - m) * _LOG2_E) / d
            if HAS_WEIGHT:
                w = tl.load(weight_ptr + cols, mask=inside, other=0.0).to(tl.float32)
                g_ce = (1 - label_smoothing) * p * weight_y
                g_smooth = eps * (-w + p * total_weight)
                g_z = 2 * lse_square_scale * lse * p
                if reduction == "mean":
                    g_ce = g_ce / sum_weight
                    g_smooth = g_smooth / sum_weight
                    g_z = g_z / count
                g = g_ce + g_smooth + g_z
            else:
                g = p + 2 * lse_square_scale * lse * p - eps
                if reduction == "mean":
                    g = g / count
            if HAS_SOFTCAPPING:
                g = g * (1 - t * t)
            tl.store(X_ptr + cols, g, mask=inside)
        # the target's column: its extra -(1 - label_smoothing) term, written after the pass
        tl.debug_barrier()
        p_y = tl.exp2((x_y - m) * _LOG2_E) / d
        if HAS_WEIGHT:
            g_y = ((1 - label_smoothing) * p_y - (1 - label_smoothing)) * weight_y
            g_y_smooth = eps * (-weight_y + p_y * total_weight)
            g_y_z = 2 * lse_square_scale * lse * p_y
            if reduction == "mean":
                g_y = g_y / sum_weight
                g_y_smooth = g_y_smooth / sum_weight
                g_y_z = g_y_z / count
            g_y = g_y + g_y_smooth + g_y_z
        else:
            g_y = p_y + 2 * lse_square_scale * lse * p_y - eps - (1 - label_smoothing)
            if reduction == "mean":
                g_y = g_y / count
        if HAS_SOFTCAPPING:
            t_y = x_y / cap
            g_y = g_y * (1 - t_y * t_y)
        tl.store(X_ptr + y, g_y)

    tl.debug_barrier()
    loss = lse - x_y
    if HAS_WEIGHT:
        loss = weight_y * loss
    if label_smoothing > 0:
        if HAS_WEIGHT:
            smooth_loss = smooth_sum + eps * lse * total_weight
        else:
            smooth_loss = smooth_sum + label_smoothing * lse
        loss = loss * (1 - label_smoothing) + smooth_loss
    z_loss = lse_square_scale * lse * lse
    if reduction == "mean":
        if HAS_WEIGHT:
            loss = loss / sum_weight
        else:
            loss = loss / count
        z_loss = z_loss / count
    loss += z_loss
    tl.store(loss_ptr + row * loss_stride, loss)
    if RETURN_Z_LOSS:
        tl.store(z_loss_ptr + row * loss_stride, z_loss)
    if RETURN_TOKEN_ACCURACY:
        tl.store(token_accuracy_ptr + row * token_accuracy_stride, tl.where(best == y, 1.0, 0.0))
    if RETURN_PREDICTED_TOKENS:
        tl.store(predicted_tokens_ptr + row * predicted_tokens_stride, best)


def _num_warps(x):
    if is_hip():
        return 16
    # the library's measured choice: Blackwell 16-bit inputs are issue-bound, else 32 warps
    return 8 if (x.element_size() == 2 and infer_device_arch().startswith("blackwell")) else 32


def cross_entropy_forward(
    _input,
    target,
    weight,
    ignore_index,
    lse_square_scale,
    label_smoothing,
    reduction,
    softcap,
    return_z_loss,
    return_token_accuracy=False,
    return_predicted_tokens=False,
):
    for name, flag in (("return_z_loss", return_z_loss),
                       ("return_token_accuracy", return_token_accuracy),
                       ("return_predicted_tokens", return_predicted_tokens)):
        assert isinstance(flag, bool), f"{name} must be True or False. Got: {flag}"
    BT, V = _input.shape
    device = _input.device
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))

    if _input.stride(-1) != 1:
        _input = _input.contiguous()
    if target.stride(-1) != 1:
        target = target.contiguous()

    # Targets in [0, V) except ignore_index, checked on the device: no host round trip.
    valid = (target == ignore_index) | ((target >= 0) & (target < V))
    torch._assert_async(valid.all(), "cross_entropy: a target is out of bounds [0, V)")

    needs_count = reduction == "mean" or return_token_accuracy or weight is not None
    ones = torch.ones((), dtype=torch.float32, device=device)
    count = (target != ignore_index).sum(dtype=torch.float32) if needs_count else ones
    sum_weight = count
    weight_sum = ones
    if weight is not None:
        assert weight.shape[0] == V, (
            f"If given, weight has to be a Tensor of size V. Got: {weight.shape}"
        )
        assert torch.is_floating_point(weight), (
            f"If given, weight has to be a Tensor of floating point dtype. Got: {weight.dtype}"
        )
        kept = target != ignore_index
        sum_weight = torch.where(kept, weight[target.clamp(0, V - 1)], 0).sum(dtype=torch.float32)
        weight_sum = weight.sum(dtype=torch.float32)
        if weight.stride(-1) != 1:
            weight = weight.contiguous()

    loss_1d = torch.empty(BT, dtype=_input.dtype, device=device)
    z_loss_1d = torch.empty(BT, dtype=_input.dtype, device=device) if return_z_loss else None
    accuracy_1d = (torch.empty(BT, dtype=torch.float32, device=device)
                   if return_token_accuracy else None)
    predicted_1d = (torch.empty(BT, dtype=torch.int64, device=device)
                    if return_predicted_tokens else None)

    if BT:
        liger_cross_entropy_kernel[(BT,)](
            X_ptr=_input,
            X_stride=_input.stride(-2),
            Y_ptr=target,
            Y_stride=target.stride(-1),
            weight_ptr=weight,
            loss_ptr=loss_1d,
            z_loss_ptr=z_loss_1d,
            loss_stride=loss_1d.stride(-1),
            token_accuracy_ptr=accuracy_1d,
            token_accuracy_stride=accuracy_1d.stride(-1) if return_token_accuracy else 0,
            predicted_tokens_ptr=predicted_1d,
            predicted_tokens_stride=predicted_1d.stride(-1) if return_predicted_tokens else 0,
            n_cols=V,
            n_non_ignore=count,
            sum_non_ignore_weight=sum_weight,
            weight_sum=weight_sum,
            ignore_index=ignore_index,
            lse_square_scale=lse_square_scale,
            label_smoothing=label_smoothing,
            reduction=reduction,
            softcap=softcap,
            RETURN_Z_LOSS=return_z_loss,
            RETURN_TOKEN_ACCURACY=return_token_accuracy,
            RETURN_PREDICTED_TOKENS=return_predicted_tokens,
            BLOCK_SIZE=BLOCK_SIZE,
            HAS_WEIGHT=weight is not None,
            HAS_SOFTCAPPING=softcap is not None,
            HAS_GRADIENTS=_input.requires_grad,
            SCALARS_ON_DEVICE=True,
            num_warps=_num_warps(_input),
        )

    if reduction == "none":
        loss, z_loss = loss_1d, z_loss_1d
        token_accuracy = accuracy_1d
    else:
        loss = torch.sum(loss_1d)
        z_loss = torch.sum(z_loss_1d) if return_z_loss else None
        token_accuracy = torch.sum(accuracy_1d) / count if return_token_accuracy else None
    return loss, z_loss, token_accuracy, predicted_1d, _input


def cross_entropy_backward(_input, grad_output):
    """Scales the gradient stored in _input by grad_output (skipped when it is 1)."""
    if torch.equal(grad_output, torch.tensor(1.0, device=grad_output.device)):
        return _input
    if grad_output.ndim > 0:  # reduction "none": one factor per row
        return _input * grad_output.unsqueeze(dim=1)
    BT, V = _input.shape
    element_mul_kernel[(BT,)](
        _input,
        _input.stride(-2),
        grad_output,
        V,
        BLOCK_SIZE=min(MAX_FUSED_SIZE, triton.next_power_of_2(V)),
        num_warps=32 if not is_hip() else 16,
    )
    return _input


class LigerCrossEntropyFunction(torch.autograd.Function):
    """Cross-entropy whose forward also computes the gradient, stored in the logits."""

    @staticmethod
    def forward(
        ctx,
        _input: torch.Tensor,
        target: torch.Tensor,
        weight: torch.FloatTensor | None,
        ignore_index: int = -100,
        lse_square_scale: float = 0.0,
        label_smoothing: float = 0.0,
        reduction: str = "mean",
        softcap: float | None = None,
        return_z_loss: bool = False,
        return_token_accuracy: bool = False,
        return_predicted_tokens: bool = False,
    ):
        requires_grad = _input.requires_grad
        loss, z_loss, token_accuracy, predicted_tokens, _input = cross_entropy_forward(
            _input,
            target,
            weight,
            ignore_index,
            lse_square_scale,
            label_smoothing,
            reduction,
            softcap,
            return_z_loss,
            return_token_accuracy,
            return_predicted_tokens,
        )
        if requires_grad:
            ctx.save_for_backward(_input.detach())
        ctx.return_z_loss = return_z_loss
        ctx.return_token_accuracy = return_token_accuracy
        ctx.return_predicted_tokens = return_predicted_tokens
        return loss, z_loss, token_accuracy, predicted_tokens

    @staticmethod
    def backward(ctx, grad_output, grad_output2, grad_output3, grad_output4):
        (_input,) = ctx.saved_tensors
        _input = cross_entropy_backward(_input, grad_output)
        return (_input,) + (None,) * 10
