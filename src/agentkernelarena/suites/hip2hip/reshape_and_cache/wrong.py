"""Known-wrong variants of the paged KV-cache write: padding tokens (slot -1) written to the
cache's last slot (a negative index), and a slot split offset-major (block = slot % NB)."""


def padding_written(key, value, k_cache, v_cache, slot_mapping):
    NB, BS, H, D = k_cache.shape
    k_out = k_cache.clone().view(NB * BS, H, D)
    v_out = v_cache.clone().view(NB * BS, H, D)
    k_out[slot_mapping] = key
    v_out[slot_mapping] = value
    return (k_out.view(NB, BS, H, D), v_out.view(NB, BS, H, D))


def offset_major(key, value, k_cache, v_cache, slot_mapping):
    NB, BS, H, D = k_cache.shape
    k_out, v_out = k_cache.clone(), v_cache.clone()
    keep = slot_mapping >= 0
    s = slot_mapping[keep]
    k_out[s % NB, s // NB] = key[keep]
    v_out[s % NB, s // NB] = value[keep]
    return (k_out, v_out)
