"""What each of these torch2cuda tasks' binding.cpp does, in Python, for the CPU emulator
(emulator.py): allocate, pass data pointers, sizes, scalars and dtype codes, check the returned
status. Keep each in step with its binding.cpp.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from emu_drivers import DTYPE, Launchers, check_status


def upsample_nearest_add(launch: Launchers, fine: torch.Tensor,
                         coarse: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(fine)
    N, C, h, w = coarse.shape
    status = launch["aka_upsample_nearest_add"](
        fine.data_ptr(), coarse.data_ptr(), out.data_ptr(), N * C, h, w, DTYPE[fine.dtype], None
    )
    check_status(status, "aka_upsample_nearest_add")
    return out


def batchnorm_relu_inference(launch: Launchers, x: torch.Tensor, weight: torch.Tensor,
                             bias: torch.Tensor, mean: torch.Tensor,
                             var: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    N, C, H, W = x.shape
    status = launch["aka_batchnorm_relu"](
        x.data_ptr(), weight.data_ptr(), bias.data_ptr(), mean.data_ptr(), var.data_ptr(),
        y.data_ptr(), N, C, H * W, 1e-5, DTYPE[x.dtype], None
    )
    check_status(status, "aka_batchnorm_relu")
    return y


def masked_softmax(launch: Launchers, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_masked_softmax"](
        x.data_ptr(), mask.data_ptr(), y.data_ptr(), M, N, DTYPE[x.dtype], None
    )
    check_status(status, "aka_masked_softmax")
    return y


def cross_entropy(launch: Launchers, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    M, V = logits.shape
    loss = torch.empty(M, dtype=torch.float32)
    status = launch["aka_cross_entropy"](
        logits.data_ptr(), targets.data_ptr(), loss.data_ptr(), M, V, -100,
        DTYPE[logits.dtype], None
    )
    check_status(status, "aka_cross_entropy")
    return loss


def moe_gating_topk(launch: Launchers, logits: torch.Tensor) -> torch.Tensor:
    T, E = logits.shape
    combine = torch.empty(T, E, dtype=torch.float32)
    top_k = 4  # kernel.py's TOP_K
    status = launch["aka_moe_gating_topk"](
        logits.data_ptr(), combine.data_ptr(), T, E, top_k, DTYPE[logits.dtype], None
    )
    check_status(status, "aka_moe_gating_topk")
    return combine


def causal_depthwise_conv1d(launch: Launchers, x: torch.Tensor, weight: torch.Tensor,
                            bias: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    B, C, L = x.shape
    status = launch["aka_causal_conv1d_silu"](
        x.data_ptr(), weight.data_ptr(), bias.data_ptr(), out.data_ptr(), B, C, L,
        weight.shape[1], DTYPE[x.dtype], None
    )
    check_status(status, "aka_causal_conv1d_silu")
    return out


def cumsum_rows(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    M, N = x.shape
    status = launch["aka_cumsum_rows"](x.data_ptr(), y.data_ptr(), M, N, DTYPE[x.dtype], None)
    check_status(status, "aka_cumsum_rows")
    return y


def group_norm(launch: Launchers, x: torch.Tensor, weight: torch.Tensor,
               bias: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    N, C, H, W = x.shape
    status = launch["aka_group_norm"](
        x.data_ptr(), weight.data_ptr(), bias.data_ptr(), y.data_ptr(), N, C, H * W, 32, 1e-5,
        DTYPE[x.dtype], None
    )
    check_status(status, "aka_group_norm")
    return y


def avg_pool2d(launch: Launchers, x: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    out = torch.empty(N, C, (H - 1) // 2 + 1, (W - 1) // 2 + 1, dtype=x.dtype)
    status = launch["aka_avg_pool2d"](x.data_ptr(), out.data_ptr(), N * C, H, W, DTYPE[x.dtype],
                                      None)
    check_status(status, "aka_avg_pool2d")
    return out


def embedding_bag_mean(launch: Launchers, weight: torch.Tensor, indices: torch.Tensor,
                       offsets: torch.Tensor) -> torch.Tensor:
    out = torch.empty(offsets.numel(), weight.shape[1], dtype=weight.dtype)
    status = launch["aka_embedding_bag_mean"](
        weight.data_ptr(), indices.data_ptr(), offsets.data_ptr(), out.data_ptr(),
        weight.shape[1], offsets.numel(), indices.numel(), DTYPE[weight.dtype], None
    )
    check_status(status, "aka_embedding_bag_mean")
    return out


def linear_relu(launch: Launchers, x: torch.Tensor, weight: torch.Tensor,
                bias: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = weight.shape[0]
    y = torch.empty(M, N, dtype=x.dtype)
    status = launch["aka_linear_relu"](
        x.data_ptr(), weight.data_ptr(), bias.data_ptr(), y.data_ptr(), M, N, K, DTYPE[x.dtype],
        None
    )
    check_status(status, "aka_linear_relu")
    return y


def attention_sdpa(launch: Launchers, q: torch.Tensor, k: torch.Tensor,
                   v: torch.Tensor) -> torch.Tensor:
    o = torch.empty_like(q)
    B, H, S, D = q.shape
    status = launch["aka_attention"](
        q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), B * H, S, D, D ** -0.5,
        DTYPE[q.dtype], None
    )
    check_status(status, "aka_attention")
    return o


DRIVERS: dict[str, Callable[..., torch.Tensor]] = {
    "torch2cuda/upsample_nearest_add": upsample_nearest_add,
    "torch2cuda/batchnorm_relu_inference": batchnorm_relu_inference,
    "torch2cuda/masked_softmax": masked_softmax,
    "torch2cuda/cross_entropy": cross_entropy,
    "torch2cuda/moe_gating_topk": moe_gating_topk,
    "torch2cuda/causal_depthwise_conv1d": causal_depthwise_conv1d,
    "torch2cuda/cumsum_rows": cumsum_rows,
    "torch2cuda/group_norm": group_norm,
    "torch2cuda/avg_pool2d": avg_pool2d,
    "torch2cuda/embedding_bag_mean": embedding_bag_mean,
    "torch2cuda/linear_relu": linear_relu,
    "torch2cuda/attention_sdpa": attention_sdpa,
}
