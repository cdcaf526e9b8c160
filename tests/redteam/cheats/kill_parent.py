"""Kills its parent at import (the harness, if it were the parent), and everything else it may
signal."""

import os
import signal

for _pid in (os.getppid(), 1):
    try:
        os.kill(_pid, signal.SIGKILL)
    except OSError:
        pass


def forward(x, y, alpha):
    return _launch(x, y, alpha)
