"""Tensors between the trusted processes and the candidate's, as plain files with no pickle.

Inputs go from the judge to the candidate's runner and outputs come back the same way, through
files in the evaluation folder. The format is a JSON header and raw bytes, so that reading what
the candidate wrote runs no code of its choosing (a pickle would), and every size in the header
is checked against the file before any byte is trusted.

Layout: magic (8 bytes), header length (8 bytes, little endian), the JSON header, then each
tensor's bytes (its contiguous copy) at a 64-byte aligned offset. Strides are kept, so a
non-contiguous input reaches the candidate with the layout the task made.
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

MAGIC = b"AKATENS1"
_ALIGN = 64
MAX_HEADER = 1 << 20
DTYPES = {
    name: getattr(torch, name)
    for name in ("float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8",
                 "uint8", "bool", "float8_e4m3fn", "float8_e5m2", "complex64")
    if hasattr(torch, name)
}


class TensorFileError(ValueError):
    """A file that is not what the format says (truncated, oversized, an unknown dtype)."""


@dataclass(frozen=True)
class TensorSlot:
    """Where one tensor lives in a file: what a reader maps without reading the rest."""

    dtype: str
    shape: tuple[int, ...]
    stride: tuple[int, ...]
    offset: int
    nbytes: int


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _round_up(value: int) -> int:
    return (value + _ALIGN - 1) // _ALIGN * _ALIGN


def _items(value: Any) -> tuple[str, list[Any]]:
    if isinstance(value, torch.Tensor):
        return "tensor", [value]
    if isinstance(value, (tuple, list)):
        return "tuple", list(value)
    raise TypeError(f"expected a tensor or a tuple, got {type(value).__name__}")


def layout(value: Any) -> dict[str, Any]:
    """The header of `value`'s file (slots with their offsets), before anything is written."""
    structure, items = _items(value)
    described: list[dict[str, Any]] = []
    cursor = 0
    for item in items:
        if isinstance(item, torch.Tensor):
            if _dtype_name(item.dtype) not in DTYPES:
                raise TypeError(f"dtype {item.dtype} cannot be exchanged")
            nbytes = item.numel() * item.element_size()
            described.append({"kind": "tensor", "dtype": _dtype_name(item.dtype),
                              "shape": list(item.shape), "stride": list(item.stride()),
                              "offset": cursor, "nbytes": nbytes})
            cursor = _round_up(cursor + nbytes)
        elif item is None or isinstance(item, (bool, int, float, str)):
            described.append({"kind": "value", "value": item})
        elif isinstance(item, torch.dtype) and _dtype_name(item) in DTYPES:
            described.append({"kind": "dtype", "value": _dtype_name(item)})
        else:
            raise TypeError(f"cannot exchange a {type(item).__name__}")
    return {"structure": structure, "items": described, "data_bytes": cursor}


def _encode_header(header: dict[str, Any]) -> bytes:
    raw = json.dumps(header).encode()
    start = _round_up(len(MAGIC) + 8 + len(raw))
    return MAGIC + struct.pack("<Q", len(raw)) + raw + b" " * (start - len(MAGIC) - 8 - len(raw))


def write(path: Path, value: Any) -> None:
    """Write `value` (a tensor or a tuple of tensors and plain values) to `path`."""
    header = layout(value)
    head = _encode_header(header)
    _, items = _items(value)
    tmp = Path(f"{path}.part")
    with open(tmp, "wb") as handle:
        handle.write(head)
        for item, slot in zip(items, header["items"], strict=True):
            if slot["kind"] != "tensor":
                continue
            handle.seek(len(head) + slot["offset"])
            flat = item.detach().contiguous().reshape(-1)
            if flat.numel():
                handle.write(flat.view(torch.uint8).cpu().numpy().tobytes())
        handle.truncate(len(head) + header["data_bytes"])
    os.replace(tmp, path)


def read_header(path: Path, max_bytes: int) -> tuple[dict[str, Any], int]:
    """The header and where the data begins, checked against the file's real size."""
    size = path.stat().st_size
    if size > max_bytes:
        raise TensorFileError(f"{path.name} is {size} bytes, over the limit of {max_bytes}")
    with open(path, "rb") as handle:
        prefix = handle.read(len(MAGIC) + 8)
        if len(prefix) < len(MAGIC) + 8 or prefix[: len(MAGIC)] != MAGIC:
            raise TensorFileError(f"{path.name} is not a tensor file")
        (length,) = struct.unpack("<Q", prefix[len(MAGIC):])
        if length > MAX_HEADER:
            raise TensorFileError(f"{path.name}: header of {length} bytes")
        try:
            header = json.loads(handle.read(length))
        except (ValueError, UnicodeDecodeError) as exc:
            raise TensorFileError(f"{path.name}: unreadable header ({exc})") from None
    start = _round_up(len(MAGIC) + 8 + length)
    if not isinstance(header, dict) or not isinstance(header.get("items"), list):
        raise TensorFileError(f"{path.name}: malformed header")
    for slot in header["items"]:
        if not isinstance(slot, dict):
            raise TensorFileError(f"{path.name}: malformed item")
        if slot.get("kind") == "tensor":
            _check_slot(slot, start, size, path.name)
    return header, start


def _check_slot(slot: dict[str, Any], start: int, size: int, name: str) -> None:
    dtype = DTYPES.get(slot.get("dtype"))  # type: ignore[arg-type]
    shape, stride = slot.get("shape"), slot.get("stride")
    valid = (dtype is not None and isinstance(shape, list) and isinstance(stride, list)
             and len(shape) == len(stride)
             and all(isinstance(v, int) and v >= 0 for v in [*shape, *stride])
             and isinstance(slot.get("offset"), int) and slot["offset"] >= 0)
    if not valid:
        raise TensorFileError(f"{name}: malformed tensor entry")
    numel = int(np.prod(shape)) if shape else 1
    nbytes = numel * torch.empty((), dtype=dtype).element_size()
    if slot.get("nbytes") != nbytes or start + slot["offset"] + nbytes > size:
        raise TensorFileError(f"{name}: tensor entry does not match the file's size")


def slots(header: dict[str, Any], start: int) -> list[TensorSlot | Any]:
    """Each item of a checked header: a TensorSlot (absolute offset) or the plain value."""
    out: list[TensorSlot | Any] = []
    for item in header["items"]:
        if item.get("kind") == "tensor":
            out.append(TensorSlot(item["dtype"], tuple(item["shape"]), tuple(item["stride"]),
                                  start + item["offset"], item["nbytes"]))
        elif item.get("kind") == "dtype":
            if item.get("value") not in DTYPES:
                raise TensorFileError(f"unknown dtype {item.get('value')!r}")
            out.append(DTYPES[item["value"]])
        else:
            out.append(item.get("value"))
    return out


def map_slot(path: Path, slot: TensorSlot, writable: bool = False,
             lazy: bool = False) -> torch.Tensor:
    """The slot's bytes as a contiguous tensor: backed by the file when `writable` (writes go
    to it) or `lazy` (pages read only when touched, private to the reader); else a copy."""
    shape = slot.shape
    if slot.nbytes == 0:
        return torch.empty(shape, dtype=DTYPES[slot.dtype])
    mode = "r+" if writable else "c" if lazy else "r"
    raw = np.memmap(path, dtype=np.uint8, mode=mode, offset=slot.offset, shape=(slot.nbytes,))
    tensor = torch.from_numpy(raw) if writable or lazy else torch.from_numpy(np.array(raw))
    return tensor.view(DTYPES[slot.dtype]).reshape(shape)


def read(path: Path, device: str = "cpu", max_bytes: int = 64 << 30) -> Any:
    """The value `write` wrote, on `device`, with each tensor's strides as written."""
    header, start = read_header(path, max_bytes)
    values: list[Any] = []
    for item in slots(header, start):
        if isinstance(item, TensorSlot):
            data = map_slot(path, item)
            try:
                tensor = torch.empty_strided(item.shape, item.stride, dtype=data.dtype,
                                             device=device)
                tensor.copy_(data)
            except RuntimeError:  # overlapping strides (an expanded input): contiguous then
                tensor = data.to(device)
            values.append(tensor)
        else:
            values.append(item)
    if header.get("structure") == "tensor" and len(values) == 1:
        return values[0]
    return tuple(values)


def create_for(path: Path, meta_header: dict[str, Any]) -> None:
    """An output file laid out as `meta_header` says, zero-filled, for a writer that maps it."""
    head = _encode_header(meta_header)
    with open(path, "wb") as handle:
        handle.write(head)
        handle.truncate(len(head) + meta_header["data_bytes"])
