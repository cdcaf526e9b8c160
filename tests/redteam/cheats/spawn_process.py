"""Starts a process that competes with the baseline for the device."""

import subprocess
import sys

_HOG = subprocess.Popen([sys.executable, "-c", "while True: pass"])


def forward(x, y, alpha):
    return _launch(x, y, alpha)
