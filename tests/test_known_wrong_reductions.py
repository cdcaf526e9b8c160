"""Known-wrong variants of the reduction, scan, indexing, gather/scatter and selection tasks
fail their task's comparison on the CPU configurations, while the reference passes.

Each case is a plausible wrong implementation in plain PyTorch (most are the functions the
task's wrong.py declares): the last index on ties, the biased variance, a non-accumulating
scatter, an inclusive instead of exclusive prefix sum, an unstable compaction order, ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from known_wrong import (
    TASKS,
    case_ids,
    check_case,
    task_module,
)


def _wrong(task_id: str, fn: str) -> Callable[..., Any]:
    def run(*args):
        return getattr(task_module(TASKS[task_id], "wrong"), fn)(*args)
    return run


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _gather_next_row(table, idx):
    return table[(idx.long() + 1) % table.shape[0]]


def _argmax_in_blocks_last_tie(x):
    # Per 512-column block the first maximum, but blocks combined keeping the later one on ties.
    n = x.shape[1]
    best_v = torch.full((x.shape[0],), float("-inf"), dtype=torch.float64)
    best_i = torch.zeros(x.shape[0], dtype=torch.int64)
    for s in range(0, n, 512):
        v, i = x[:, s:s + 512].double().max(dim=1)
        take = v >= best_v
        best_v = torch.where(take, v, best_v)
        best_i = torch.where(take, i + s, best_i)
    return best_i


def _compaction_count_exclusive(x, mask):
    ref = task_module(TASKS["triton2triton/stream_compaction"], "reference").reference
    out, count = ref(x, mask)
    return (out, count - 1)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("triton2triton/argmax_rows", "last index on ties",
     _wrong("triton2triton/argmax_rows", "last_index_on_ties")),
    ("triton2triton/argmax_rows", "blocks merged keeping the later tie",
     _argmax_in_blocks_last_tie),
    ("triton2triton/var_mean_rows", "biased variance",
     _wrong("triton2triton/var_mean_rows", "biased_variance")),
    ("triton2triton/var_mean_rows", "E[x^2] - E[x]^2 in float32",
     _wrong("triton2triton/var_mean_rows", "sum_of_squares_in_float32")),
    ("triton2triton/index_add_rows", "repeated destinations not accumulated",
     _wrong("triton2triton/index_add_rows", "last_write_wins")),
    ("triton2triton/index_add_rows", "base left out",
     _wrong("triton2triton/index_add_rows", "base_left_out")),
    ("triton2triton/gather_rows", "index off by one row", _gather_next_row),
    ("triton2triton/top_p_mask", "inclusive instead of exclusive prefix sum",
     _wrong("triton2triton/top_p_mask", "inclusive_cumsum")),
    ("triton2triton/top_p_mask", "kept probabilities not renormalized",
     _wrong("triton2triton/top_p_mask", "not_renormalized")),
    ("triton2triton/sort_rows", "descending order",
     _wrong("triton2triton/sort_rows", "descending")),
    ("triton2triton/sort_rows", "sorted by magnitude",
     _wrong("triton2triton/sort_rows", "sorted_by_magnitude")),
    ("triton2triton/stream_compaction", "unstable order within blocks",
     _wrong("triton2triton/stream_compaction", "unstable_within_blocks")),
    ("triton2triton/stream_compaction", "padding not zeroed",
     _wrong("triton2triton/stream_compaction", "tail_not_zeroed")),
    ("triton2triton/stream_compaction", "count one short", _compaction_count_exclusive),
    ("triton2triton/repeat_kv", "heads tiled (h % HKV) instead of repeated (h // rep)",
     _wrong("triton2triton/repeat_kv", "tiled_heads")),
    ("triton2triton/cumprod_rows", "exclusive instead of inclusive",
     _wrong("triton2triton/cumprod_rows", "exclusive")),
    ("triton2triton/cumprod_rows", "signs dropped", _wrong("triton2triton/cumprod_rows",
                                                           "sign_dropped")),
    ("triton2triton/row_max_min", "running max/min started at 0",
     _wrong("triton2triton/row_max_min", "zero_initialized")),
    ("triton2triton/row_max_min", "max and min swapped",
     _wrong("triton2triton/row_max_min", "swapped")),
    ("triton2triton/jagged_sum", "segment end included",
     _wrong("triton2triton/jagged_sum", "segment_end_included")),
    ("triton2triton/jagged_sum", "only the first 4096 elements of a segment",
     _wrong("triton2triton/jagged_sum", "capped_length")),
    ("triton2triton/masked_fill_scatter", "masked token t takes src row t",
     _wrong("triton2triton/masked_fill_scatter", "same_position")),
    ("triton2triton/masked_fill_scatter", "inclusive rank as the source row",
     _wrong("triton2triton/masked_fill_scatter", "rank_off_by_one")),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
