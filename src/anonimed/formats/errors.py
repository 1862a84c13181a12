"""Errors raised by the readers: each names the file and what is wrong with it."""

from __future__ import annotations

from pathlib import Path


class FormatError(ValueError):
    """A file that cannot be read as the format it claims to be."""

    def __init__(self, path: str | Path, problem: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {problem}")
        self.path = Path(path)
        self.problem = problem
        self.line = line
