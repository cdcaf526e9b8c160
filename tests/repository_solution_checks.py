"""Numerics of the repository tasks' solutions on the CPU, against PyTorch, under Triton's
interpreter: more than the tasks' own configurations (every option of the autograd functions,
the backward passes, what other modules of the package call).

Run as `TRITON_INTERPRET=1 python repository_solution_checks.py TREE` where TREE holds the
pristine liger-kernel package with the solutions' files laid over it (the test that calls it
builds TREE from the upstream cache). The libraries' own kernels cannot run here (see each
task's `cpu_unsupported`); these checks are what the CPU can say about the solutions.
"""

from __future__ import annotations

import itertools
import sys

import torch

F = torch.nn.functional
IGNORE = -100


def _close(got: torch.Tensor, want: torch.Tensor, atol: float, rtol: float) -> None:
    torch.testing.assert_close(got.double(), want.double(), atol=atol, rtol=rtol)


def check_swiglu() -> None:
    from liger_kernel.ops.swiglu import (
        LigerFusedGateUpSiLUMulFunction,
        LigerSiLUMulFunction,
        swiglu_forward,
    )

    for dtype, atol, rtol in ((torch.float32, 1e-7, 1e-5), (torch.float16, 1e-6, 2e-3),
                              (torch.bfloat16, 1e-6, 1.6e-2)):
        for rows, cols in ((5, 777), (3, 5000), (1, 8)):
            a = (torch.randn(rows, cols) * 2).to(dtype)
            b = torch.randn(rows, cols).to(dtype)
            _close(swiglu_forward(a, b)[2], F.silu(a.double()) * b.double(), atol, rtol)
    for gate, down in ((1.0, 1.0), (1.75, 0.625)):
        a = torch.randn(7, 900, requires_grad=True)
        b = torch.randn(7, 900, requires_grad=True)
        a2 = a.detach().double().requires_grad_()
        b2 = b.detach().double().requires_grad_()
        out = LigerSiLUMulFunction.apply(a, b, gate, down)
        ref = F.silu(a2 * gate) * b2 * down
        _close(out, ref, 1e-5, 1e-5)
        grad = torch.randn_like(ref)
        out.backward(grad.float())
        ref.backward(grad)
        _close(a.grad, a2.grad, 1e-4, 1e-4)
        _close(b.grad, b2.grad, 1e-4, 1e-4)
    y = torch.randn(6, 1400, requires_grad=True)
    y2 = y.detach().double().requires_grad_()
    out = LigerFusedGateUpSiLUMulFunction.apply(y)
    ref = F.silu(y2[:, :700]) * y2[:, 700:]
    _close(out, ref, 1e-5, 1e-5)
    grad = torch.randn_like(ref)
    out.backward(grad.float())
    ref.backward(grad)
    _close(y.grad, y2.grad, 1e-4, 1e-4)


def check_geglu() -> None:
    from liger_kernel.ops.geglu import LigerGELUMulFunction, geglu_forward

    for dtype, atol, rtol in ((torch.float32, 5e-6, 1e-5), (torch.float16, 1e-6, 2e-3),
                              (torch.bfloat16, 1e-6, 1.6e-2)):
        a = (torch.randn(5, 777) * 2).to(dtype)
        b = torch.randn(5, 777).to(dtype)
        want = F.gelu(a.double(), approximate="tanh") * b.double()
        _close(geglu_forward(a, b)[2], want, atol, rtol)
    a = (torch.randn(7, 900) * 2).requires_grad_()
    b = torch.randn(7, 900, requires_grad=True)
    a2 = a.detach().double().requires_grad_()
    b2 = b.detach().double().requires_grad_()
    out = LigerGELUMulFunction.apply(a, b)
    ref = F.gelu(a2, approximate="tanh") * b2
    _close(out, ref, 5e-6, 1e-5)
    grad = torch.randn_like(ref)
    out.backward(grad.float())
    ref.backward(grad)
    _close(a.grad, a2.grad, 1e-5, 1e-4)
    _close(b.grad, b2.grad, 1e-5, 1e-4)


def _cross_entropy_ref(x, target, weight, smoothing, z_scale, reduction, cap):
    x = x.double()
    if cap is not None:
        x = cap * torch.tanh(x / cap)
    ce = F.cross_entropy(x, target, weight=None if weight is None else weight.double(),
                         ignore_index=IGNORE, label_smoothing=smoothing, reduction="none")
    lse = torch.logsumexp(x, -1)
    kept = target != IGNORE
    z = torch.where(kept, z_scale * lse * lse, 0.0)
    if reduction == "none":
        return ce + z, z
    if reduction == "sum":
        return ce.sum() + z.sum(), z.sum()
    denom = kept.sum() if weight is None else weight.double()[target.clamp(0)][kept].sum()
    return ce.sum() / denom + z.sum() / kept.sum(), z.sum() / kept.sum()


def check_cross_entropy() -> None:
    from liger_kernel.ops.cross_entropy import LigerCrossEntropyFunction, cross_entropy_forward
    from liger_kernel.ops.fused_linear_cross_entropy import (
        LigerFusedLinearCrossEntropyFunction,
    )

    rows, vocab = 12, 700
    for weighted, smoothing, z_scale, reduction, cap, grad in itertools.product(
            (False, True), (0.0, 0.1), (0.0, 1e-4), ("none", "sum", "mean"), (None, 30.0),
            (False, True)):
        x = torch.randn(rows, vocab) * 4
        target = torch.randint(0, vocab, (rows,))
        target[3] = target[7] = IGNORE
        weight = torch.rand(vocab) + 0.5 if weighted else None
        want, want_z = _cross_entropy_ref(x, target, weight, smoothing, z_scale, reduction, cap)
        args = (weight, IGNORE, z_scale, smoothing, reduction, cap, True, True, True)
        if grad:
            xg = x.clone().requires_grad_()
            loss, z, accuracy, predicted = LigerCrossEntropyFunction.apply(xg, target, *args)
            xr = x.double().clone().requires_grad_()
            ref, _ = _cross_entropy_ref(xr, target, weight, smoothing, z_scale, reduction, cap)
            upstream_grad = torch.rand_like(ref)
            ref.backward(upstream_grad)
            loss.backward(upstream_grad.float())
            _close(xg.grad, xr.grad, 1e-6, 1e-4)
        else:
            xc = x.clone()
            loss, z, accuracy, predicted, _ = cross_entropy_forward(xc, target, *args)
            assert torch.equal(xc, x), ("the logits changed although no gradient was requested",
                                        weighted, smoothing, z_scale, reduction, cap)
        _close(loss, want, 1e-5, 1e-5)
        _close(z, want_z, 1e-6, 1e-5)
        capped = x if cap is None else cap * torch.tanh(x / cap)
        kept = target != IGNORE
        assert torch.equal(predicted, torch.where(kept, capped.argmax(-1), -1))
        hits = ((capped.argmax(-1) == target) & kept).float()
        _close(accuracy, hits if reduction == "none" else hits.sum() / kept.sum(), 1e-6, 1e-6)
    try:
        cross_entropy_forward(torch.randn(2, 10), torch.tensor([1, 10]), None, IGNORE, 0.0, 0.0,
                              "none", None, False)
    except RuntimeError as exc:
        assert "out of bounds" in str(exc)
    else:
        raise AssertionError("an out-of-bounds target was accepted")
    # fused_linear_cross_entropy.py launches the kernel with numbers, not device scalars
    x = torch.randn(16, 32, requires_grad=True)
    w = torch.randn(300, 32, requires_grad=True)
    target = torch.randint(0, 300, (16,))
    target[2] = IGNORE
    out = LigerFusedLinearCrossEntropyFunction.apply(x, w, target)
    loss = out[0] if isinstance(out, tuple) else out
    loss.backward()
    x2 = x.detach().double().requires_grad_()
    w2 = w.detach().double().requires_grad_()
    ref = F.cross_entropy(x2 @ w2.T, target)
    ref.backward()
    _close(loss, ref, 1e-5, 1e-5)
    _close(x.grad, x2.grad, 1e-5, 1e-4)
    _close(w.grad, w2.grad, 1e-5, 1e-4)


def check_softmax() -> None:
    from liger_kernel.ops.softmax import LigerSoftmaxFunction, _softmax_forward

    # narrow rows in tiles, one-row tiles, and rows wider than one block (streamed)
    for rows, cols in ((67, 128), (33, 300), (5, 5000), (3, 40000), (1, 1)):
        for dtype, atol, rtol in ((torch.float32, 1e-7, 1e-5), (torch.bfloat16, 1e-6, 1.6e-2)):
            x = (torch.randn(rows, cols) * 2).to(dtype)
            _close(_softmax_forward(x)[0], torch.softmax(x.double(), -1), atol, rtol)
        x = torch.randn(rows, cols, requires_grad=True)
        x2 = x.detach().double().requires_grad_()
        out = LigerSoftmaxFunction.apply(x)
        ref = torch.softmax(x2, -1)
        grad = torch.randn_like(ref)
        out.backward(grad.float())
        ref.backward(grad)
        _close(x.grad, x2.grad, 1e-6, 1e-5)


CHECKS = {"swiglu": check_swiglu, "geglu": check_geglu, "cross_entropy": check_cross_entropy,
          "softmax": check_softmax}

if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1])
    torch.manual_seed(0)
    import liger_kernel.ops  # noqa: F401  (the whole package imports with the solutions' files)

    for name in sys.argv[2:] or CHECKS:
        CHECKS[name]()
        print(f"{name}: ok")
