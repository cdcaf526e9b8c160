"""Reference and inputs for the speculative-decoding verification task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, S, V = config["B"], config["S"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(B, S + 1, V, generator=gen, device=device).mul_(2.0)
    draft_probs = torch.softmax(logits[:, :S], dim=-1).contiguous()
    noise = torch.randn(B, S + 1, V, generator=gen, device=device)
    target_probs = torch.softmax(logits + noise, dim=-1).contiguous()

    # The first rejected position of each sequence, 0..S (S: all accepted). Sequence 0 rejects
    # the first draft, sequence 1 accepts all, sequence 2 rejects in the middle with a residual
    # that is all zeros (its target row equals the draft row except at the drafted token).
    first = torch.randint(0, S + 1, (B,), generator=gen, device=device)
    first[0] = 0
    if B > 1:
        first[1] = S
    if B > 2:
        first[2] = S // 2
    pos = torch.arange(S, device=device)[None, :]
    after = torch.rand(B, S, generator=gen, device=device) < 0.5
    # After the first rejection positions are accepted or rejected at random, the one right
    # after it always accepted: only the first rejection may count.
    accept = (pos < first[:, None]) | ((pos > first[:, None]) & after) | (pos == first[:, None] + 1)

    # Drafted tokens: where accepted, one with target >= 0.2 * draft; where rejected, one with
    # target <= 0.9 * draft (so the acceptance ratio is below 1).
    tgt = target_probs[:, :S]
    ok = torch.where(accept[..., None], tgt >= 0.2 * draft_probs, tgt <= 0.9 * draft_probs)
    score = torch.rand(B, S, V, generator=gen, device=device)
    draft_tokens = torch.where(ok, score, torch.full_like(score, -1.0)).argmax(dim=-1)

    if B > 2 and S > 0:
        i = S // 2
        tok = draft_tokens[2, i]
        row = draft_probs[2, i].clone()
        row[tok] = row[tok] * 0.5
        target_probs[2, i] = row

    d = draft_probs.gather(2, draft_tokens[..., None])[..., 0]
    t = target_probs[:, :S].gather(2, draft_tokens[..., None])[..., 0]
    ratio = torch.clamp(t / d, max=1.0)
    # uniform stays at least 1% (relative) away from the ratio on either side.
    w = torch.rand(B, S, generator=gen, device=device) * 0.98 + 0.01
    uniform = torch.where(accept, ratio * w, ratio + (1.0 - ratio) * w)
    return (draft_probs, target_probs, draft_tokens.contiguous(), uniform.contiguous())


def _candidates(draft_probs, target_probs):
    """The next token if the first rejection is at position i (i = 0..S; S: all accepted)."""
    S = draft_probs.shape[1]
    residual = torch.clamp(target_probs[:, :S] - draft_probs, min=0.0)
    target_best = target_probs.argmax(dim=-1)
    res_best = torch.where(residual.amax(dim=-1) > 0, residual.argmax(dim=-1),
                           target_best[:, :S])
    return torch.cat([res_best, target_best[:, S:]], dim=1)


def reference(draft_probs, target_probs, draft_tokens, uniform):
    S = draft_probs.shape[1]
    d = draft_probs.gather(2, draft_tokens[..., None])[..., 0]
    t = target_probs[:, :S].gather(2, draft_tokens[..., None])[..., 0]
    accepted = uniform < torch.clamp(t / d, max=1.0)
    pos = torch.arange(S, device=uniform.device)[None, :]
    n = torch.where(accepted, torch.full_like(pos, S), pos).amin(dim=1)
    next_token = _candidates(draft_probs, target_probs).gather(1, n[:, None])[:, 0]
    return (n, next_token)


def exercised(config: dict, draft_probs, target_probs, draft_tokens, uniform) -> dict:
    """The description's rules, seen in these inputs."""
    S = draft_probs.shape[1]
    n, _ = reference(draft_probs, target_probs, draft_tokens, uniform)
    d = draft_probs.gather(2, draft_tokens[..., None])[..., 0]
    t = target_probs[:, :S].gather(2, draft_tokens[..., None])[..., 0]
    accepted = uniform < torch.clamp(t / d, max=1.0)
    pos = torch.arange(S, device=uniform.device)[None, :]
    later = (accepted & (pos > n[:, None])).any()
    rejected = n < S
    rows = n.clamp(max=S - 1)
    res = torch.clamp(target_probs[torch.arange(n.shape[0]), rows]
                      - draft_probs[torch.arange(n.shape[0]), rows], min=0.0)
    zero_res = (rejected & (res.amax(dim=-1) == 0)).any()
    return {
        "rejection at the first position": bool((n == 0).any()),
        "all drafts accepted": bool((n == S).any()),
        "rejection in the middle": bool(((n > 0) & (n < S)).any()),
        "accepted drafts after the first rejection": bool(later),
        "all-zero residual at the rejected position": bool(zero_res),
    }
