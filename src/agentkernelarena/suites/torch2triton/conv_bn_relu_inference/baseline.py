"""torch2triton/conv_bn_relu_inference: the PyTorch eager baseline (a Conv2d(3x3, padding 1,
no bias) -> BatchNorm2d -> ReLU block of a ResNet/VGG/U-Net-style network in eval mode, as
model.eval() runs it: the convolution, then the batch norm with its running statistics, then
the ReLU, three kernels with two output-sized temporaries between them)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def forward(x: torch.Tensor, w: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor,
            running_mean: torch.Tensor, running_var: torch.Tensor) -> torch.Tensor:
    y = F.conv2d(x, w, padding=1)
    y = F.batch_norm(y, running_mean, running_var, gamma, beta, training=False, eps=EPS)
    return F.relu(y)
