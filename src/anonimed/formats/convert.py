"""``anonimed convert``: documents from one format to another, every bad file or document recorded and the rest
converted."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from anonimed.document import Document
from anonimed.formats.documents import read_documents, write_documents
from anonimed.formats.registry import get_format, guess_format
from anonimed.text.tagging import Scheme

log = logging.getLogger(__name__)


@dataclass
class ConvertSummary:
    source: str
    target: str
    output: str
    documents: int = 0  # written
    spans_read: int = 0
    failures: dict[str, str] = field(default_factory=dict)

    def line(self) -> str:
        failed = f", {len(self.failures)} failed" if self.failures else ""
        return (
            f"{self.documents} documents converted from {self.source} to {self.target} into {self.output} "
            f"({self.spans_read} PHI spans read){failed}"
        )


def convert(
    input_path: str | Path,
    output_path: str | Path,
    to: str,
    scheme: Scheme = "BIOES",
    source_format: str | None = None,
    check_labels: bool = True,
) -> ConvertSummary:
    """Convert a file or folder of documents to the format ``to``; every failure is recorded and the rest go on."""
    input_path, output_path = Path(input_path), Path(output_path)
    source = get_format(source_format) if source_format else guess_format(input_path)
    target = get_format(to)
    if output_path.exists() and output_path.resolve() == input_path.resolve():
        raise ValueError(f"{output_path}: the output must differ from the input (inputs are never overwritten)")
    summary = ConvertSummary(source.name, target.name, str(output_path))

    def record(where: str, error: Exception) -> None:
        summary.failures[where] = str(error)
        log.error("%s: %s", where, error)

    def counted(documents: Iterable[Document]) -> Iterator[Document]:
        for document in documents:
            summary.spans_read += len(document.spans)
            yield document

    documents = read_documents(input_path, source.name, check_labels, on_error=record)
    summary.documents = write_documents(counted(documents), output_path, target.name, scheme, on_error=record)
    return summary
