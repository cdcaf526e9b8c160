"""Emulator drivers for a second batch of hip2hip tasks (point clouds, serving, scatter and
reduction kernels).

Each function does what the task's binding.cpp does (allocate, pass data pointers, sizes and
dtype codes, check the status) for the CPU emulator (emulator.py); keep each in step with its
binding. test_suites_emulated.py merges the DRIVERS of every emu_drivers*.py.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from emu_drivers import DTYPE, Launchers, check_status


def reshape_and_cache(
    launch: Launchers, key: torch.Tensor, value: torch.Tensor, k_cache: torch.Tensor,
    v_cache: torch.Tensor, slot_mapping: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    T, H, D = key.shape
    NB, BS = k_cache.shape[0], k_cache.shape[1]
    status = launch["aka_reshape_and_cache"](
        key.data_ptr(), value.data_ptr(), k_cache.data_ptr(), v_cache.data_ptr(),
        slot_mapping.data_ptr(), T, H, D, BS, NB, DTYPE[key.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_reshape_and_cache")
    return (k_cache, v_cache)


def segment_sum(launch: Launchers, x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    S = offsets.shape[0] - 1
    out = torch.zeros(S, D, dtype=torch.float32)
    if out.numel() == 0 or N == 0:
        return out
    status = launch["aka_segment_sum"](
        x.data_ptr(), offsets.data_ptr(), out.data_ptr(), N, D, S, DTYPE[x.dtype], None
    )
    check_status(status, "aka_segment_sum")
    return out


def moe_topk_softmax(
    launch: Launchers, logits: torch.Tensor, topk_weights: torch.Tensor, topk_ids: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    T, E = logits.shape
    status = launch["aka_moe_topk_softmax"](
        logits.data_ptr(), topk_weights.data_ptr(), topk_ids.data_ptr(), T, E,
        topk_ids.shape[1], DTYPE[logits.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_moe_topk_softmax")
    return (topk_weights, topk_ids)


def farthest_point_sampling(
    launch: Launchers, points: torch.Tensor, idx: torch.Tensor
) -> torch.Tensor:
    B, N, _ = points.shape
    npoint = idx.shape[1]
    temp = torch.empty(B, N, dtype=torch.float32)
    status = launch["aka_farthest_point_sampling"](
        points.data_ptr(), temp.data_ptr(), idx.data_ptr(), B, N, npoint, None
    )
    check_status(status, "aka_farthest_point_sampling")
    return idx


def layernorm_backward(
    launch: Launchers, dy: torch.Tensor, x: torch.Tensor, weight: torch.Tensor,
    mean: torch.Tensor, rstd: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    M, N = x.shape
    dx = torch.empty_like(x)
    dgamma = torch.zeros(N, dtype=torch.float32)
    dbeta = torch.zeros(N, dtype=torch.float32)
    status = launch["aka_layernorm_backward"](
        dy.data_ptr(), x.data_ptr(), weight.data_ptr(), mean.data_ptr(), rstd.data_ptr(),
        dx.data_ptr(), dgamma.data_ptr(), dbeta.data_ptr(), M, N, DTYPE[x.dtype], None,
    )  # fmt: skip
    check_status(status, "aka_layernorm_backward")
    return (dx, dgamma, dbeta)


DRIVERS: dict[str, Callable[..., object]] = {
    "hip2hip/reshape_and_cache": reshape_and_cache,
    "hip2hip/segment_sum": segment_sum,
    "hip2hip/moe_topk_softmax": moe_topk_softmax,
    "hip2hip/farthest_point_sampling": farthest_point_sampling,
    "hip2hip/layernorm_backward": layernorm_backward,
}
