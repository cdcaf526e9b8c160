"""Known-wrong variants of the frequency/presence penalties: the presence penalty applied to
every token (not only those seen), and the presence penalty scaled by the count (the two
penalties' roles confused)."""



def presence_everywhere(logits, counts, frequency, presence):
    c = counts.to(logits.dtype)
    out = logits - frequency.to(logits.dtype)[:, None] * c - presence.to(logits.dtype)[:, None]
    return out.to(logits.dtype)


def presence_per_occurrence(logits, counts, frequency, presence):
    c = counts.to(logits.dtype)
    f, p = frequency.to(logits.dtype)[:, None], presence.to(logits.dtype)[:, None]
    return (logits - f * c - p * c).to(logits.dtype)
