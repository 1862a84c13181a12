"""The two types every stage shares: a :class:`Document` and the :class:`Span` annotations that point into it."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True, order=True)
class Span:
    """A labelled character range ``[start, end)`` of a document's text.

    ``score`` is the detector's confidence in [0, 1] (1.0 for gold annotations) and ``source`` names who produced it.
    Spans order by position first, so ``sorted(spans)`` is reading order.
    """

    start: int
    end: int
    label: str
    score: float = field(default=1.0, compare=False)
    source: str = field(default="gold", compare=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.start, int) and isinstance(self.end, int)):
            raise TypeError(f"span offsets must be integers, got {self.start!r}, {self.end!r}")
        if self.start < 0 or self.end <= self.start:
            raise ValueError(f"invalid span offsets [{self.start}, {self.end}) for label {self.label!r}")

    def __len__(self) -> int:
        return self.end - self.start

    @property
    def key(self) -> tuple[str, int, int]:
        """What scoring compares: type and offsets (score and source do not matter)."""
        return (self.label, self.start, self.end)

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def contains(self, other: Span) -> bool:
        return self.start <= other.start and other.end <= self.end

    def with_label(self, label: str) -> Span:
        return replace(self, label=label)


class SpanOutOfBoundsError(ValueError):
    """A span whose offsets do not fall inside the document text."""


@dataclass
class Document:
    """A note: its identifier, its exact text, its PHI spans and free metadata (source path, patient key...)."""

    id: str
    text: str
    spans: list[Span] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.validate_spans(self.spans)

    def validate_spans(self, spans: Iterable[Span]) -> None:
        for span in spans:
            if span.end > len(self.text):
                raise SpanOutOfBoundsError(
                    f"document {self.id!r}: span [{span.start}, {span.end}) {span.label} "
                    f"ends past the text ({len(self.text)} characters)"
                )

    def span_text(self, span: Span) -> str:
        return self.text[span.start : span.end]

    def with_spans(self, spans: Iterable[Span]) -> Document:
        """A copy carrying ``spans`` (sorted, duplicates of the same type and offsets removed)."""
        unique = {s.key: s for s in spans}
        return Document(self.id, self.text, sorted(unique.values()), dict(self.metadata))

    def edited(self, edits: Iterable[Edit]) -> Document:
        """A copy with each ``text[start:end]`` replaced by ``replacement`` and every span moved exactly.

        Edits must not overlap each other.  An edit either lies outside every span, or inside one (the span grows or
        shrinks with it: replacing a span's whole text is how surrogates are put in); an edit that crosses a span
        boundary raises ``ValueError``.  An insertion (``start == end``) at a span's start goes before the span and
        one at its end goes after it.
        """
        ordered = sorted(edits, key=lambda e: (e.start, e.end))
        for previous, current in itertools.pairwise(ordered):
            if current.start < previous.end or (current.start == previous.start and previous.start == previous.end):
                raise ValueError(f"document {self.id!r}: overlapping edits {previous} and {current}")
        for edit in ordered:
            if not 0 <= edit.start <= edit.end <= len(self.text):
                raise ValueError(f"document {self.id!r}: edit {edit} falls outside the text")
            for span in self.spans:
                crosses = edit.start < span.end and edit.end > span.start
                if crosses and not (span.start <= edit.start and edit.end <= span.end):
                    raise ValueError(f"document {self.id!r}: edit {edit} crosses the boundary of span {span}")
        pieces, cursor = [], 0
        for edit in ordered:
            pieces.append(self.text[cursor : edit.start])
            pieces.append(edit.replacement)
            cursor = edit.end
        pieces.append(self.text[cursor:])

        def moved(position: int, is_end: bool) -> int:
            shift = 0
            for edit in ordered:
                if edit.end > position or (is_end and edit.start == position):
                    break
                shift += len(edit.replacement) - (edit.end - edit.start)
            return position + shift

        spans = [replace(s, start=moved(s.start, False), end=moved(s.end, True)) for s in self.spans]
        return Document(self.id, "".join(pieces), spans, dict(self.metadata))


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` with ``replacement`` (an insertion when ``start == end``)."""

    start: int
    end: int
    replacement: str
