"""Reference and inputs for the pairwise box IoU matrix."""

import torch


def _boxes(n: int, gen: torch.Generator, device: str) -> torch.Tensor:
    # Centres in a 48 x 48 region, sides between 16 and 80: most pairs overlap (IoU > 0),
    # some are disjoint, and some contain one another.
    c = torch.rand(n, 2, generator=gen, device=device).mul_(48.0)
    wh = torch.rand(n, 2, generator=gen, device=device).mul_(64.0).add_(16.0)
    return torch.cat((c - wh / 2, c + wh / 2), dim=1)


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    return (_boxes(config["M"], gen, device), _boxes(config["N"], gen, device))


def reference(boxes1: torch.Tensor, boxes2: torch.Tensor) -> torch.Tensor:
    area1 = (boxes1[:, 2] - boxes1[:, 0]) * (boxes1[:, 3] - boxes1[:, 1])
    area2 = (boxes2[:, 2] - boxes2[:, 0]) * (boxes2[:, 3] - boxes2[:, 1])
    lt = torch.maximum(boxes1[:, None, :2], boxes2[None, :, :2])
    rb = torch.minimum(boxes1[:, None, 2:], boxes2[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area1[:, None] + area2[None, :] - inter)


def exercised(config: dict, boxes1: torch.Tensor, boxes2: torch.Tensor) -> dict:
    iou = reference(boxes1.double(), boxes2.double())
    return {"some pairs are disjoint (IoU 0)": bool((iou == 0).any()),
            "some pairs overlap": bool((iou > 0).any())}
