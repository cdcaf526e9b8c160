"""torch2cuda/embedding_bag_mean: the PyTorch eager baseline (nn.EmbeddingBag(mode="mean") of a
recommendation or bag-of-words model: the mean of the embedding rows of each bag, bags given by
their start offsets into a flat index list)."""

import torch
import torch.nn.functional as F


def forward(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return F.embedding_bag(indices, weight, offsets, mode="mean")
