"""Reference and inputs for the temperature-scaled distillation KL task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # A teacher and a student of related but different beliefs, sharpness and offsets per row.
    temp = torch.rand(M, 1, generator=gen, device=device).mul_(3.0).add_(1.0)
    offset = torch.randn(M, 2, generator=gen, device=device).mul_(3.0)
    teacher = torch.randn(M, V, generator=gen, device=device) * temp + offset[:, :1]
    noise = torch.randn(M, V, generator=gen, device=device)
    student = teacher * 0.8 + noise * temp * 0.5 + offset[:, 1:]
    return (teacher.to(dtype), student.to(dtype), float(config["T"]))


def reference(teacher: torch.Tensor, student: torch.Tensor, T: float) -> torch.Tensor:
    acc = torch.float64 if teacher.dtype == torch.float64 else torch.float32
    lt = torch.log_softmax(teacher.to(acc) / T, dim=-1)
    ls = torch.log_softmax(student.to(acc) / T, dim=-1)
    return ((torch.exp(lt) * (lt - ls)).sum(dim=-1) * (T * T)).to(torch.float32)
