"""The exchange format between the judge and the candidate's runner: what it keeps, and that a
file the candidate wrote wrong is refused before any byte of it is trusted."""

from __future__ import annotations

import json
import struct

import pytest
import torch

from agentkernelarena.evaluate import tensorfile
from agentkernelarena.evaluate.tensorfile import MAGIC, TensorFileError


def test_round_trip_keeps_values_dtypes_strides_and_plain_values(tmp_path):
    x = torch.randn(6, 5).to(torch.bfloat16)
    transposed = torch.arange(12, dtype=torch.int32).reshape(3, 4).t()
    value = (x, transposed, 1.5, 7, None, torch.zeros(0), torch.float16)
    path = tmp_path / "v.bin"
    tensorfile.write(path, value)
    back = tensorfile.read(path)
    assert torch.equal(back[0], x) and back[0].dtype == torch.bfloat16
    assert torch.equal(back[1], transposed) and back[1].stride() == transposed.stride()
    assert back[2:5] == (1.5, 7, None) and back[5].numel() == 0
    assert back[6] is torch.float16  # a task's inputs may name an output dtype
    single = tmp_path / "t.bin"
    tensorfile.write(single, x)
    assert isinstance(tensorfile.read(single), torch.Tensor)


def test_an_output_file_is_filled_in_place_and_sampled_lazily(tmp_path):
    path = tmp_path / "out.bin"
    expected = torch.randn(100, 3)
    tensorfile.create_for(path, tensorfile.layout(torch.empty(100, 3)))
    header, start = tensorfile.read_header(path, 1 << 30)
    (slot,) = tensorfile.slots(header, start)
    tensorfile.map_slot(path, slot, writable=True).copy_(expected)
    assert torch.equal(tensorfile.read(path), expected)
    lazy = tensorfile.map_slot(path, slot, lazy=True)
    assert torch.equal(lazy.reshape(-1)[torch.tensor([0, 299])], expected.reshape(-1)[[0, 299]])


def _forge(path, header: dict, data: bytes = b"") -> None:
    raw = json.dumps(header).encode()
    head = MAGIC + struct.pack("<Q", len(raw)) + raw
    start = (len(head) + 63) // 64 * 64  # where the format puts the data
    path.write_bytes(head + b" " * (start - len(head)) + data)


@pytest.mark.parametrize("case", ["magic", "truncated", "huge_header", "not_json", "dtype",
                                  "size", "negative"])
def test_malformed_files_are_refused(tmp_path, case):
    path = tmp_path / "bad.bin"
    good = {"structure": "tensor", "items": [{"kind": "tensor", "dtype": "float32",
                                              "shape": [4], "stride": [1], "offset": 0,
                                              "nbytes": 16}], "data_bytes": 16}
    if case == "magic":
        path.write_bytes(b"NOTATENS" + b"\0" * 64)
    elif case == "truncated":
        _forge(path, good, b"\0" * 4)  # 16 bytes promised, 4 there
    elif case == "huge_header":
        path.write_bytes(MAGIC + struct.pack("<Q", 1 << 40))
    elif case == "not_json":
        path.write_bytes(MAGIC + struct.pack("<Q", 5) + b"{{{{{" + b"\0" * 64)
    elif case == "dtype":
        bad = json.loads(json.dumps(good))
        bad["items"][0]["dtype"] = "object"
        _forge(path, bad, b"\0" * 16)
    elif case == "size":
        bad = json.loads(json.dumps(good))
        bad["items"][0]["nbytes"] = 8  # does not match 4 float32
        _forge(path, bad, b"\0" * 16)
    else:
        bad = json.loads(json.dumps(good))
        bad["items"][0]["shape"] = [-4]
        _forge(path, bad, b"\0" * 16)
    with pytest.raises(TensorFileError):
        tensorfile.read(path)


def test_a_file_over_the_size_limit_is_refused(tmp_path):
    path = tmp_path / "big.bin"
    tensorfile.write(path, torch.zeros(1024))
    with pytest.raises(TensorFileError, match="over the limit"):
        tensorfile.read(path, max_bytes=100)


def test_every_bundled_tasks_inputs_can_be_exchanged(tmp_path):
    """The runner hands a call's inputs back (the in-place check) in this format: whatever a
    task's inputs function returns (tensors, numbers, a dtype) must go through it."""
    import importlib.util

    from agentkernelarena.evaluate.compare import identical
    from agentkernelarena.tasks.loader import discover_tasks

    for task in discover_tasks():
        spec = importlib.util.spec_from_file_location(f"inputs_{task.name}",
                                                      task.root / task.inputs.file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        config = task.configs_for("cpu", "visible")[0]
        args = getattr(module, task.inputs.function)(config.params, 1, "cpu")
        args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
        path = tmp_path / f"{task.name}.bin"
        tensorfile.write(path, args)
        back = tensorfile.read(path)
        back = back if isinstance(back, tuple) else (back,)
        for a, b in zip(args, back, strict=True):
            # Bit for bit: NaN inputs (histogram's) must come back as the same NaN.
            assert identical(a, b) if isinstance(a, torch.Tensor) else a == b, task.id
