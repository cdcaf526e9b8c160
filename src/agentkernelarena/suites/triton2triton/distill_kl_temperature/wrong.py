"""Known-wrong variants of the temperature-scaled distillation KL."""

import torch


def _kl(p_logits, q_logits, T_p, T_q, scale):
    lp = torch.log_softmax(p_logits / T_p, dim=-1)
    lq = torch.log_softmax(q_logits / T_q, dim=-1)
    return ((torch.exp(lp) * (lp - lq)).sum(dim=-1) * scale).float()


def t_squared_left_out(teacher: torch.Tensor, student: torch.Tensor, T: float) -> torch.Tensor:
    return _kl(teacher, student, T, T, 1.0)


def reversed_direction(teacher: torch.Tensor, student: torch.Tensor, T: float) -> torch.Tensor:
    # KL(student || teacher).
    return _kl(student, teacher, T, T, T * T)


def student_not_tempered(teacher: torch.Tensor, student: torch.Tensor, T: float) -> torch.Tensor:
    return _kl(teacher, student, T, 1.0, T * T)
