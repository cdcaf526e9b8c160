"""Double-forks a daemon at import (new session, re-parented away) that burns the CPU for as
long as it lives, to slow the baseline; it also tries to outlive the evaluation."""

import os

_TOKEN = globals().get("_REDTEAM_TOKEN", "aka-redteam-daemon-hog")
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        try:
            os.execvp("python3", ["python3", "-c", f"import sys; sys.argv.append({_TOKEN!r})\nwhile True: pass", _TOKEN])
        finally:
            os._exit(0)
    os._exit(0)


def forward(x, y, alpha):
    return _launch(x, y, alpha)
