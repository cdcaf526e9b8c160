"""Known-wrong variants of the pairwise box IoU."""

import torch


def _iou(boxes1, boxes2, plus, subtract_inter=True):
    area1 = (boxes1[:, 2] - boxes1[:, 0] + plus) * (boxes1[:, 3] - boxes1[:, 1] + plus)
    area2 = (boxes2[:, 2] - boxes2[:, 0] + plus) * (boxes2[:, 3] - boxes2[:, 1] + plus)
    lt = torch.maximum(boxes1[:, None, :2], boxes2[None, :, :2])
    rb = torch.minimum(boxes1[:, None, 2:], boxes2[None, :, 2:])
    wh = (rb - lt + plus).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = area1[:, None] + area2[None, :] - (inter if subtract_inter else 0.0)
    return inter / union


def legacy_plus_one(boxes1, boxes2):
    # The integer-pixel convention of old detectors: widths x2 - x1 + 1.
    return _iou(boxes1, boxes2, 1.0)


def union_not_reduced(boxes1, boxes2):
    # The intersection not subtracted from the sum of the areas.
    return _iou(boxes1, boxes2, 0.0, subtract_inter=False)
