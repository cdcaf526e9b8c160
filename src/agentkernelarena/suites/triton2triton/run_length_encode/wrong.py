"""Known-wrong variants of run_length_encode that `aka tasks check` must see rejected."""

import torch


def _encode(x):
    """The correct encoding (as reference.py computes it), to be spoiled below."""
    M, N = x.shape
    start = torch.ones_like(x, dtype=torch.bool)
    start[:, 1:] = x[:, 1:] != x[:, :-1]
    run = start.to(torch.int64).cumsum(1) - 1
    rows = torch.arange(M, device=x.device)[:, None].expand(M, N)
    values = torch.zeros_like(x)
    values[rows[start], run[start]] = x[start]
    lengths = torch.zeros(M, N, dtype=torch.int64, device=x.device)
    lengths.scatter_add_(1, run, torch.ones_like(run))
    return (values, lengths.to(torch.int32), start.sum(1).to(torch.int32))


def counts_off_by_one(x):
    # The number of value changes (starts after the first) reported as the run count.
    values, lengths, counts = _encode(x)
    return (values, lengths, counts - 1)


def last_run_length_missing(x):
    # The last run of each row has no following start, and its length is left at 0.
    values, lengths, counts = _encode(x)
    lengths = lengths.clone()
    lengths[torch.arange(x.shape[0], device=x.device), counts.long() - 1] = 0
    return (values, lengths, counts)


def merged_across_rows(x):
    # Run starts found on the flattened matrix (no new run at a row's first element when it
    # equals the end of the row before): each run is reported in the row it starts in, with
    # its whole length.
    M, N = x.shape
    flat = x.reshape(-1)
    start = torch.ones_like(flat, dtype=torch.bool)
    start[1:] = flat[1:] != flat[:-1]
    pos = torch.nonzero(start).flatten()
    lens = torch.diff(pos, append=torch.tensor([M * N], device=x.device))
    row = pos // N
    counts = torch.bincount(row, minlength=M)
    first = torch.cumsum(counts, 0) - counts
    rank = torch.arange(pos.numel(), device=x.device) - first[row]
    values = torch.zeros_like(x)
    lengths = torch.zeros_like(x)
    values[row, rank] = flat[pos]
    lengths[row, rank] = lens.to(torch.int32)
    return (values, lengths, counts.to(torch.int32))
