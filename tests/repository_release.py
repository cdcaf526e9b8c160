"""A tiny upstream project for repository-task tests, served from a local package index.

`tinyops` 1.0 as an sdist: `src/tinyops/scale.py` (the target: a Triton kernel, y = x * FACTOR),
`src/tinyops/consts.py` (FACTOR, used by the target: changing it would change the result, so a
test can tell whether a non-target file was taken), and `tests/test_scale.py` (the project's own
tests, one of which can be made to fail). The index is a `file://` folder as pip reads it, so
the tests stand in for PyPI without a network.
"""

from __future__ import annotations

import hashlib
import io
import tarfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

SCALE = '''\
"""y = x * FACTOR, one program per BLOCK elements."""
import torch
import triton
import triton.language as tl

from tinyops.consts import FACTOR


@triton.jit
def _scale_kernel(x_ptr, y_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * factor, mask=mask)


def scale(x):
    y = torch.empty_like(x)
    n = x.numel()
    _scale_kernel[(triton.cdiv(n, 256),)](x, y, n, FACTOR, BLOCK=256)
    return y


def describe():
    return "scale by FACTOR"
'''

UPSTREAM_TEST = '''\
import torch

from tinyops.scale import describe, scale


def test_scale_small():
    x = torch.arange(10, dtype=torch.float32)
    assert torch.equal(scale(x), x * 2.0)


def test_describe():
    assert describe() == "scale by FACTOR"
'''

ENTRY = '''\
"""The arena's wrapper: tinyops' scale, imported from the package beside this file."""
import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from tinyops.scale import scale  # noqa: E402


def forward(x):
    return scale(x)
'''

REFERENCE = '''\
import torch


def make_inputs(config, seed, device):
    gen = torch.Generator(device=device).manual_seed(seed)
    return (torch.randn(config["N"], generator=gen, device=device),)


def reference(x):
    return x * 2.0
'''

FILE = "tinyops-1.0.tar.gz"


@dataclass
class Release:
    index: str  # file:// URL of the index
    archive: Path
    sha256: str
    tasks_dir: Path

    def task_dir(self, name: str = "tiny_scale") -> Path:
        return self.tasks_dir / "repository" / name


def _tar(files: dict[str, str], top: str = "tinyops-1.0") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def task_yaml(sha256: str, *, name: str = "tiny_scale", target: str = "tinyops/scale.py",
              tests_run: str = "tests/test_scale.py") -> str:
    return textwrap.dedent(f"""\
        id: repository/{name}
        category: repository
        language: triton
        description: Test fixture, a repository task on the tiny tinyops project.
        entry: entry.py:forward
        editable: [{target}]
        reference: reference.py:reference
        inputs: reference.py:make_inputs
        upstream:
          project: tinyops
          version: "1.0"
          file: {FILE}
          sha256: "{sha256}"
          root: tinyops-1.0/src
          packages: [tinyops]
          functions: {{{target}: [scale]}}
          tests:
            dir: tinyops-1.0
            files: [tests/test_scale.py]
            run: [{tests_run}]
            device: any
        configs:
          visible: [{{N: 1000}}, {{N: 300}}]
          held_out: [{{N: 777}}]
        timeouts: {{compile: 120, correctness: 120, performance: 60}}
        tolerance:
          float32: {{atol: 1.0e-6, rtol: 1.0e-6}}
        """)


def write_task(release: Release, yaml_text: str, name: str = "tiny_scale") -> Path:
    folder = release.task_dir(name)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "task.yaml").write_text(yaml_text)
    (folder / "entry.py").write_text(ENTRY)
    (folder / "reference.py").write_text(REFERENCE)
    return folder


def build_release(root: Path) -> Release:
    """The sdist, an index listing it, and a tasks folder with the task `repository/tiny_scale`."""
    data = _tar({
        "src/tinyops/__init__.py": "",
        "src/tinyops/consts.py": "FACTOR = 2.0\n",
        "src/tinyops/scale.py": SCALE,
        "tests/test_scale.py": UPSTREAM_TEST,
        "PKG-INFO": "Name: tinyops\nVersion: 1.0\n",
    })
    files = root / "files"
    files.mkdir(parents=True)
    archive = files / FILE
    archive.write_bytes(data)
    sha = hashlib.sha256(data).hexdigest()
    page = root / "index" / "tinyops"
    page.mkdir(parents=True)
    page.joinpath("index.html").write_text(
        f'<html><body><a href="../../files/{FILE}#sha256={sha}">{FILE}</a></body></html>\n')
    release = Release(index=(root / "index").as_uri(), archive=archive, sha256=sha,
                      tasks_dir=root / "tasks")
    write_task(release, task_yaml(sha))
    return release


def add_requirement(release: Release) -> str:
    """`tinydep` 0.1 (FACTOR = 2.0) on the same index; returns the `requires:` entry for it."""
    data = _tar({"tinydep/__init__.py": "FACTOR = 2.0\n"}, top="tinydep-0.1")
    name = "tinydep-0.1.tar.gz"
    (release.archive.parent / name).write_bytes(data)
    sha = hashlib.sha256(data).hexdigest()
    page = Path(release.index.removeprefix("file://")) / "tinydep"
    page.mkdir(parents=True)
    page.joinpath("index.html").write_text(f'<a href="../../files/{name}">{name}</a>\n')
    return (f'  requires:\n    - {{project: tinydep, version: "0.1", file: {name}, '
            f'sha256: "{sha}", root: tinydep-0.1, packages: [tinydep]}}\n')
