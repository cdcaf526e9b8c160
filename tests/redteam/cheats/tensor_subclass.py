"""Returns a lazy tensor subclass instead of a plain tensor."""

class _Lazy(torch.Tensor):
    pass


def forward(x, y, alpha):
    return _launch(x, y, alpha).as_subclass(_Lazy)
