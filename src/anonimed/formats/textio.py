"""Reading and writing text files: strict UTF-8 with clear errors, and atomic writes."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from anonimed.formats.errors import FormatError


def _default_file_mode() -> int:
    # mkstemp creates files readable by their owner only; a finished output gets the mode a plain open() would give.
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


_FILE_MODE = _default_file_mode()

#: Every character ``str.splitlines()`` breaks a line on; a value written on one line of a file must hold none of them.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def read_text(path: str | Path, encoding: str = "utf-8", errors: str = "strict") -> str:
    """The file's text exactly as stored: no newline translation (CRLF stays CRLF), a UTF-8 BOM kept as U+FEFF.

    Offsets of annotations are character offsets into this string; BRAT and MEDDOCAN count a BOM as a character.
    """
    path = Path(path)
    if path.is_dir():
        raise FormatError(path, "is a folder, not a text file")
    return decode_text(path.read_bytes(), path, encoding, errors)


def decode_text(data: bytes, source: str | Path, encoding: str = "utf-8", errors: str = "strict") -> str:
    """``data`` decoded; a :class:`FormatError` naming ``source`` for binary data or a byte that does not decode."""
    if b"\x00" in data[:8192]:
        raise FormatError(source, "looks like a binary file (it contains NUL bytes), not text")
    try:
        return data.decode(encoding, errors=errors)
    except UnicodeDecodeError as error:
        raise FormatError(
            source,
            f"is not valid {encoding}: byte {error.start} ({data[error.start : error.start + 1]!r}) "
            f"cannot be decoded; give another encoding (--encoding latin-1) or --errors replace",
        ) from None
    except LookupError as error:
        raise FormatError(source, f"unknown text encoding or error handler: {error}") from None


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` so that readers see the old file or the whole new one, never a part."""
    with atomic_writer(path) as stream:
        stream.write(text)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    with atomic_writer(path, binary=True) as stream:
        stream.write(data)


def write_files_atomic(contents: Mapping[Path, str]) -> None:
    """Write several files (a note and its annotations) all or none.

    Every file is written and synced to a temporary file first; only when all of them are complete are they renamed
    into place, so a full disk or a refused write leaves none of them behind.
    """
    staged: list[tuple[str, Path]] = []
    placed: list[Path] = []
    try:
        for path, text in contents.items():
            staged.append((_staged_copy(Path(path), text.encode("utf-8")), Path(path)))
        for temporary, path in staged:
            os.replace(temporary, path)
            placed.append(path)
    except BaseException:
        for temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)
        for path in placed:
            path.unlink(missing_ok=True)
        raise


def _staged_copy(path: Path, data: bytes) -> str:
    """A complete, synced temporary file beside ``path`` holding ``data``; the caller renames or removes it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _FILE_MODE)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


@contextmanager
def atomic_writer(path: str | Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A stream into a temporary file that replaces ``path`` only when the ``with`` block ends without an error.

    Text streams write UTF-8 with no newline translation, so a CRLF or a BOM in the text reaches the file unchanged.
    Use it to write a long file piece by piece (a JSONL collection) without holding it all in memory.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") if binary else os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
