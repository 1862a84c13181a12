"""The detector protocol: anything that finds PHI spans in a document."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from anonimed.document import Document, Span


@runtime_checkable
class Detector(Protocol):
    """Finds PHI in a document.

    ``detect`` returns spans into ``document.text`` with a score in [0, 1] and ``source`` set to the detector's
    ``name``; it must not change the document.  Detectors are interchangeable: the resolver combines any of them.
    """

    name: str

    def detect(self, document: Document) -> list[Span]: ...
