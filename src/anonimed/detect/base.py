"""The detector protocol: anything that finds PHI spans in a document."""

from __future__ import annotations

from collections.abc import Sequence
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


@runtime_checkable
class SentenceDetector(Detector, Protocol):
    """A detector that reads a note sentence by sentence, and so can read only some of its sentences.

    ``detect_around`` returns the spans ``detect`` would return in the sentences that overlap any of ``spans``, and
    none elsewhere (an ensemble asks a member that cannot outvote the others alone only where they found something).
    """

    def detect_around(self, document: Document, spans: Sequence[Span]) -> list[Span]: ...
