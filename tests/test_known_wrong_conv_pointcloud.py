"""Tolerances and inputs of the convolution, pooling, resampling and point-cloud triton2triton
tasks reject the shortcuts a kernel could take.

Each case is a plausible wrong implementation of a task (in plain PyTorch, the task's own
wrong.py variants, on the task's CPU configurations and inputs): it must fail the task's
comparison on at least one configuration, while the reference itself (computed in float32 and
rounded to the native output dtypes) passes on every one.
"""

from __future__ import annotations

import pytest
import torch
from known_wrong import (
    case_ids,
    check_case,
    declared,
    in_float32,
)

# (task id, wrong.py function, what it gets wrong)
CASES: list[tuple[str, str, str]] = [
    ("triton2triton/conv2d_nhwc", "flipped_filter", "convolution instead of cross-correlation"),
    ("triton2triton/conv2d_nhwc", "swapped_rs", "filter rows and columns swapped (KSRC)"),
    ("triton2triton/depthwise_conv2d", "flipped_filter",
     "convolution instead of cross-correlation"),
    ("triton2triton/depthwise_conv2d", "transposed_filter", "filter transposed"),
    ("triton2triton/max_pool2d", "zero_padding", "padded with 0 instead of -inf"),
    ("triton2triton/avg_pool2d", "count_include_pad", "count_include_pad=True"),
    ("triton2triton/upsample_bilinear2d", "align_corners", "align_corners=True"),
    ("triton2triton/upsample_bilinear2d", "unclamped_source",
     "negative source coordinates not clamped to 0"),
    ("triton2triton/adaptive_avg_pool2d", "uniform_windows",
     "uniform avg_pool2d windows (stride H // OH)"),
    ("triton2triton/adaptive_avg_pool2d", "floor_end", "window ends rounded down"),
    ("triton2triton/knn_points", "not_squared", "Euclidean instead of squared distances"),
    ("triton2triton/knn_points", "descending", "neighbours in descending order"),
    ("triton2triton/ball_query", "pad_zero", "missing slots padded with 0"),
    ("triton2triton/ball_query", "nearest_k", "the k nearest instead of the first k"),
    ("triton2triton/farthest_point_sampling", "ties_to_largest", "ties to the largest index"),
    ("triton2triton/farthest_point_sampling", "last_point_only",
     "distance to the last sample only, not the running minimum"),
    ("triton2triton/three_nn_interpolate", "reversed_weights",
     "weights paired with the neighbours in reverse order"),
    ("triton2triton/three_nn_interpolate", "uniform_weights", "plain mean, weights ignored"),
    ("triton2triton/im2col", "channels_last_rows", "rows ordered (kh, kw, c)"),
    ("triton2triton/conv3d", "flipped_filter", "convolution instead of cross-correlation"),
    ("triton2triton/conv3d", "swapped_tr", "filter depth and row axes swapped"),
]


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


@pytest.mark.parametrize(("task_id", "variant", "what"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, variant, what):
    check_case(task_id, what, in_float32(declared(task_id, variant)))
