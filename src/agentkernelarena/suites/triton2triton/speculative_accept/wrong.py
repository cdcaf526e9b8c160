"""Known-wrong speculative-verification variants `aka tasks check` must see rejected."""

import torch


def _flags(draft_probs, target_probs, draft_tokens, uniform, inverted=False):
    S = draft_probs.shape[1]
    d = draft_probs.gather(2, draft_tokens[..., None])[..., 0]
    t = target_probs[:, :S].gather(2, draft_tokens[..., None])[..., 0]
    ratio = d / t if inverted else t / d
    return uniform < torch.clamp(ratio, max=1.0)


def _first_rejection(accepted):
    S = accepted.shape[1]
    pos = torch.arange(S, device=accepted.device)[None, :]
    return torch.where(accepted, torch.full_like(pos, S), pos).amin(dim=1)


def _pick(draft_probs, target_probs, n, residual_of):
    S = draft_probs.shape[1]
    target_best = target_probs.argmax(dim=-1)
    cands = torch.cat([residual_of(draft_probs, target_probs, target_best), target_best[:, S:]],
                      dim=1)
    return cands.gather(1, n[:, None])[:, 0]


def _residual_best(draft_probs, target_probs, target_best):
    S = draft_probs.shape[1]
    residual = torch.clamp(target_probs[:, :S] - draft_probs, min=0.0)
    return torch.where(residual.amax(dim=-1) > 0, residual.argmax(dim=-1), target_best[:, :S])


def no_early_stop(draft_probs, target_probs, draft_tokens, uniform):
    """Counts every accepted position, not only those before the first rejection."""
    n = _flags(draft_probs, target_probs, draft_tokens, uniform).sum(dim=1)
    return (n, _pick(draft_probs, target_probs, n, _residual_best))


def ratio_inverted(draft_probs, target_probs, draft_tokens, uniform):
    """Accepts with probability min(1, draft / target)."""
    n = _first_rejection(_flags(draft_probs, target_probs, draft_tokens, uniform, inverted=True))
    return (n, _pick(draft_probs, target_probs, n, _residual_best))


def residual_not_clamped(draft_probs, target_probs, draft_tokens, uniform):
    """argmax of target - draft, without the clamp at 0 (and so without the fallback)."""
    S = draft_probs.shape[1]
    n = _first_rejection(_flags(draft_probs, target_probs, draft_tokens, uniform))
    return (n, _pick(draft_probs, target_probs, n,
                     lambda d, t, tb: (t[:, :S] - d).argmax(dim=-1)))


def no_zero_residual_fallback(draft_probs, target_probs, draft_tokens, uniform):
    """argmax of the clamped residual even when it is all zeros (index 0)."""
    S = draft_probs.shape[1]
    n = _first_rejection(_flags(draft_probs, target_probs, draft_tokens, uniform))
    return (n, _pick(draft_probs, target_probs, n,
                     lambda d, t, tb: torch.clamp(t[:, :S] - d, min=0.0).argmax(dim=-1)))


def residual_from_next_target_row(draft_probs, target_probs, draft_tokens, uniform):
    """The residual of rejected position i taken against target row i + 1."""
    n = _first_rejection(_flags(draft_probs, target_probs, draft_tokens, uniform))

    def shifted(d, t, tb):
        residual = torch.clamp(t[:, 1:] - d, min=0.0)
        return torch.where(residual.amax(dim=-1) > 0, residual.argmax(dim=-1), tb[:, 1:])
    return (n, _pick(draft_probs, target_probs, n, shifted))
