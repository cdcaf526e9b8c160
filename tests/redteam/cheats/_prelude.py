"""What every cheat starts from: the fixture's honest kernel and a launcher for it.

The test prepends this to each cheat's body, so that a cheat file shows only its hack.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _scale_add(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (x * alpha + y).to(out_ptr.dtype.element_ty), mask=mask)


def _launch(x, y, alpha):
    out = torch.empty_like(x)
    n = x.numel()
    _scale_add[(triton.cdiv(n, 1024),)](x, y, out, n, alpha, BLOCK=1024)
    return out


def _command_table():
    """The runner's table of command handlers (name -> bound method), found through gc: what a
    cheat that has read the harness would patch."""
    import gc

    def is_table(obj):
        try:
            return type(obj) is dict and "stage" in obj and hasattr(obj.get("timed"), "__self__")
        except Exception:
            return False

    return next(obj for obj in gc.get_objects() if is_table(obj))
