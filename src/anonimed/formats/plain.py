"""Plain text: one ``NAME.txt`` a document, no spans.  The text is read and written byte for byte."""

from __future__ import annotations

from pathlib import Path

from anonimed.document import Document
from anonimed.formats.textio import read_text


def read_plain(path: str | Path) -> Document:
    path = Path(path)
    return Document(path.stem, read_text(path), metadata={"path": str(path)})
