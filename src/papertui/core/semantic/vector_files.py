"""The per-paper arrays of paper vectors on disk: written a chunk at a time as a build makes
them, or copied and extended with new papers' rows, never all in memory at once.

`PaperVectors.load` maps the .npy files these write; reading the old rows through plain file
reads (not a map) keeps them out of the process' resident memory.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from typing import Any

import numpy as np

from papertui.core.semantic.vector_terms import TOP_TERMS

NAMES = ("term_ids", "term_weights", "dense")
TYPES = {
    "term_ids": np.uint16,
    "term_weights": np.float16,
    "dense": np.float16,
    "prefilter": np.int8,
}
# The prefilter's rows are the LSA rows at unit length times this, rounded to int8.
PREFILTER_SCALE = 127


class Outputs:
    """Where a build's per-paper arrays go: lists of chunks (`directory` None) or the .npy
    files `PaperVectors.load` maps, written chunk by chunk.

    Each file's header is written with its first chunk, whose width it takes: the SVD can
    find fewer directions than were asked for (papers repeating a few texts), and a header
    announcing more columns than the rows hold makes the file unloadable."""

    def __init__(self, directory: Path | None, count: int) -> None:
        self.directory = directory
        self.count = count
        self.parts: dict[str, list[np.ndarray]] = {name: [] for name in NAMES}
        self._files: dict[str, Any] = {}
        self._rows: dict[str, int] = {}
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
            # made from the dense rows once they are all written (`PaperVectors.save`)
            (directory / "prefilter.npy").unlink(missing_ok=True)

    def add(self, name: str, rows: np.ndarray) -> None:
        if self.directory is None:
            self.parts[name].append(rows)
            return
        handle = self._files.get(name)
        if handle is None:
            handle = open(self.directory / f"{name}.npy", "wb")  # noqa: SIM115 - closed in finish
            _header(handle, name, (self.count, rows.shape[1]))
            self._files[name] = handle
        handle.write(np.ascontiguousarray(rows, dtype=TYPES[name]).tobytes())
        self._rows[name] = self._rows.get(name, 0) + len(rows)

    def joined(self, name: str, width: int, dtype: Any) -> np.ndarray:
        parts = self.parts[name]
        return np.concatenate(parts) if parts else np.zeros((0, width), dtype)

    def finish(self) -> None:
        """Close the files (an empty array for one no row went to); ValueError when one got
        another number of rows than its header says."""
        if self.directory is not None:
            for name in NAMES:
                if name not in self._files:
                    self.add(name, np.zeros((0, TOP_TERMS if name != "dense" else 0)))
        for handle in self._files.values():
            handle.close()
        self._files = {}
        wrong = [name for name, rows in self._rows.items() if rows != self.count]
        if wrong:
            raise ValueError(f"vector rows written for {wrong}: not {self.count} each")


def write_prefilter(directory: Path) -> None:
    """Write "prefilter.npy" beside "dense.npy": each LSA row at unit length, in int8 (times
    `PREFILTER_SCALE`). "More like this" in a large library first ranks every paper by these:
    at a million papers, turning the half-float rows into floats took 0.3 s, these take 0.05 s.
    Read and written a block at a time through plain file reads (no map stays resident)."""
    step = 65_536
    part = directory / f".prefilter.npy-{os.getpid()}-{threading.get_ident()}"  # a writer's own
    try:
        _write_prefilter(directory / "dense.npy", part, step)
        part.replace(directory / "prefilter.npy")  # whole or absent for a reader mapping it
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def _write_prefilter(dense: Path, part: Path, step: int) -> None:
    with open(dense, "rb") as source, open(part, "wb") as target:
        shape, _, dtype = _read_header(source)
        count, width = (shape[0], shape[1]) if len(shape) == 2 else (shape[0], 0)
        _header(target, "prefilter", (count, width))
        for start in range(0, count, step):
            rows = min(step, count - start)
            raw = source.read(rows * width * dtype.itemsize)
            block = np.frombuffer(raw, dtype=dtype).reshape(rows, width)
            target.write(prefilter_rows(block).tobytes())


def prefilter_rows(dense: np.ndarray) -> np.ndarray:
    """LSA rows as "prefilter.npy" keeps them: at unit length, times `PREFILTER_SCALE`, int8."""
    block = np.asarray(dense, dtype=np.float32)
    norms = np.linalg.norm(block, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.rint(block / norms * PREFILTER_SCALE).astype(np.int8)


def _read_header(source: Any) -> tuple[tuple[int, ...], bool, np.dtype[Any]]:
    """An .npy file's shape, Fortran order and type, the file left at its first row."""
    version = np.lib.format.read_magic(source)
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(source)  # type: ignore[no-any-return]
    return np.lib.format.read_array_header_2_0(source)  # type: ignore[no-any-return]


def _header(handle: Any, name: str, shape: tuple[int, int]) -> None:
    descr = np.lib.format.dtype_to_descr(np.dtype(TYPES[name]))
    header = {"descr": descr, "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(handle, header)


def extend_files(old: Path, new: Path, rows: dict[str, np.ndarray]) -> None:
    """Write into `new` each per-paper array of `old` followed by `rows[name]` (same width),
    and "prefilter.npy" when `old` has it (its rows made from the new dense ones). The old
    rows are copied as bytes, a block at a time."""
    new.mkdir(parents=True, exist_ok=True)
    (new / "prefilter.npy").unlink(missing_ok=True)  # never one left from another write
    names: tuple[str, ...] = NAMES
    if (old / "prefilter.npy").exists() and "dense" in rows:
        rows = {**rows, "prefilter": prefilter_rows(rows["dense"])}
        names = (*NAMES, "prefilter")
    for name in names:
        with open(old / f"{name}.npy", "rb") as source:
            shape, fortran, dtype = _read_header(source)
            added = np.ascontiguousarray(rows[name], dtype=TYPES[name])
            if fortran or dtype != np.dtype(TYPES[name]) or added.shape[1:] != shape[1:]:
                raise ValueError(f"{old / name}.npy does not match the rows added")
            with open(new / f"{name}.npy", "wb") as target:
                _header(target, name, (shape[0] + len(added), shape[1]))
                shutil.copyfileobj(source, target, 1 << 20)
                target.write(added.tobytes())
