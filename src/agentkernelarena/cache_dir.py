"""The base folder of everything the arena caches: native builds (`native/`) and pinned upstream
releases (`upstream/`). One definition, at the bottom of the package, because the floors that
read the cache (native builds, the evaluation sandbox that binds it read-only, the task fetcher)
must agree on it and must not import each other for it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def cache_base(env: Mapping[str, str] = os.environ) -> Path:
    """`$AKA_CACHE_DIR`, default `~/.cache/agentkernelarena`."""
    base = env.get("AKA_CACHE_DIR") or os.path.join("~", ".cache", "agentkernelarena")
    return Path(base).expanduser()
