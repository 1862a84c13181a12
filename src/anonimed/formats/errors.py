"""Errors raised by the readers (each names the file and what is wrong with it), and how batches report them."""

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


def describe_failure(error: BaseException) -> str:
    """How a batch reports a failed document: the message of an expected failure (bad input, I/O), and for an
    unexpected one (a bug met on this input) its exception type too."""
    if isinstance(error, (OSError, ValueError)):
        return str(error)
    return f"{type(error).__name__}: {error}"
