"""Reference and inputs for bilinear grid sampling."""

import math

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = config["N"], config["C"], config["H"], config["W"]
    Ho, Wo = config["Ho"], config["Wo"]
    gen = torch.Generator(device=device).manual_seed(seed)
    inp = torch.randn(N, C, H, W, generator=gen, device=device)
    # A random affine warp per image (rotation up to 20 degrees, scale 0.8-1.25, shift up to
    # 0.15) plus a little per-position jitter: smooth like a real warp, with some positions
    # falling outside the image (zero padding) near the borders.
    r = torch.rand(N, 4, generator=gen, device=device, dtype=torch.float64)
    ang = (r[:, 0] * 2 - 1) * (20 * math.pi / 180)
    scale = 0.8 + 0.45 * r[:, 1]
    shift = (r[:, 2:] * 2 - 1) * 0.15
    theta = torch.zeros(N, 2, 3, device=device, dtype=torch.float64)
    theta[:, 0, 0] = scale * torch.cos(ang)
    theta[:, 0, 1] = -scale * torch.sin(ang)
    theta[:, 1, 0] = scale * torch.sin(ang)
    theta[:, 1, 1] = scale * torch.cos(ang)
    theta[:, :, 2] = shift
    grid = torch.nn.functional.affine_grid(theta, (N, C, Ho, Wo), align_corners=False)
    grid = grid + torch.randn(grid.shape, generator=gen, device=device,
                              dtype=torch.float64).mul_(0.01)
    return (inp.to(dtype), grid.to(dtype))


def reference(inp: torch.Tensor, grid: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.grid_sample(inp, grid, mode="bilinear", padding_mode="zeros",
                                           align_corners=False)


def exercised(config: dict, inp: torch.Tensor, grid: torch.Tensor) -> dict:
    g = grid.double()
    return {
        "some positions fall outside the image": bool((g.abs() > 1).any()),
        "some positions fall inside the image": bool((g.abs() < 1).all(-1).any()),
    }
