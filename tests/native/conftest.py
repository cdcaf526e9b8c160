"""Fixtures for the native build layer: an isolated cache, task folders, tool checks.

Tools are fixtures (`nvcc`, `hipcc`, `gpu`, `no_gpu`) that skip the test when missing, so test
modules import nothing from here; shared helpers are in suite_helpers.py and emu_drivers.py,
imported by name (this folder is put on sys.path below).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty build cache."""
    path = tmp_path / "aka-cache"
    monkeypatch.setenv("AKA_CACHE_DIR", str(path))
    return path / "native"


@pytest.fixture
def data() -> Callable[[str], str]:
    """Read a sample source from tests/native/data."""
    return lambda name: (DATA / name).read_text()


@pytest.fixture
def task_dir(tmp_path: Path) -> Callable[[str, dict[str, str]], Path]:
    """Make a task folder with an entry module and the given sources; return the module path."""

    def make(folder: str, sources: dict[str, str]) -> Path:
        root = tmp_path / folder
        root.mkdir(parents=True)
        for name, text in sources.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        module = root / "kernel.py"
        module.write_text("# entry module: calls agentkernelarena.native.load(__file__, ...)\n")
        return module

    return make


@pytest.fixture(scope="session")
def nvcc() -> str:
    from agentkernelarena.native.toolchain import find_cuda_home

    home = find_cuda_home()
    if home is None or shutil.which("ninja") is None:
        pytest.skip("nvcc (CUDA toolkit) or ninja not found")
    return str(home / "bin" / "nvcc")


@pytest.fixture(scope="session")
def hipcc() -> str:
    from agentkernelarena.native.toolchain import find_hipcc

    path = find_hipcc()
    if path is None:
        pytest.skip("hipcc not found (scripts/install-hip-toolchain.sh installs it)")
    return str(path)


@pytest.fixture(scope="session")
def gpu() -> str:
    """'cuda' or 'rocm'; skips without a GPU."""
    import torch

    if not torch.cuda.is_available():
        pytest.skip("needs a GPU")
    return "rocm" if torch.version.hip else "cuda"


@pytest.fixture
def no_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exercise the compile-only gate, also on a GPU machine."""
    monkeypatch.setenv("AKA_NATIVE_COMPILE_ONLY", "1")
