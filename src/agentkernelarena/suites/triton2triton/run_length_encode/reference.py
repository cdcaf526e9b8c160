"""Reference and inputs for the row-wise run-length encoding task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Stretches of 256 elements with their own chance of a new run at each element (0.9, 0.35,
    # 0.04 or 0.0005): runs of length 1 next to runs of a few, of tens and of thousands.
    chunk = 256
    regime = torch.randint(0, 4, (M, (N + chunk - 1) // chunk), generator=gen, device=device)
    p_new = torch.tensor([0.9, 0.35, 0.04, 0.0005], device=device)[regime]
    p_new = p_new.repeat_interleave(chunk, dim=1)[:, :N]
    new = torch.rand(M, N, generator=gen, device=device) < p_new
    # Runs are numbered over the flattened matrix: a row often starts with the value the row
    # before ends with (the run must still be split at the row boundary).
    new.view(-1)[0] = True
    run = new.view(-1).cumsum(0) - 1
    table = torch.randint(-1000, 1000, (M * N,), generator=gen, device=device, dtype=torch.int32)
    x = table[run].view(M, N)
    # A long run (about N / 2, at most 3000) in row 0 and the same value across the first row
    # boundary.
    lo = N // 3
    x[0, lo:lo + min(N // 2, 3000)] = x[0, lo]
    if M > 1:
        x[1, 0] = x[0, N - 1]
    return (x.contiguous(),)


def reference(x: torch.Tensor):
    M, N = x.shape
    start = torch.ones_like(x, dtype=torch.bool)
    start[:, 1:] = x[:, 1:] != x[:, :-1]
    run = start.to(torch.int64).cumsum(1) - 1
    counts = start.sum(1).to(torch.int32)
    rows = torch.arange(M, device=x.device)[:, None].expand(M, N)
    values = torch.zeros_like(x)
    values[rows[start], run[start]] = x[start]
    lengths = torch.zeros(M, N, dtype=torch.int64, device=x.device)
    lengths.scatter_add_(1, run, torch.ones_like(run))
    return (values, lengths.to(torch.int32), counts)


def exercised(config: dict, x: torch.Tensor) -> dict:
    _, lengths, _ = reference(x)
    return {
        "a run of length 1": bool((lengths == 1).any()),
        "a run longer than 1000 (across block boundaries)": bool((lengths > 1000).any()),
        "a row starting with the value the row before ends with":
            bool((x[1:, 0] == x[:-1, -1]).any()),
    }
