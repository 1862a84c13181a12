"""The pattern detector: runs the chosen recognizers and keeps, where their spans overlap, the most confident."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator

from anonimed.detect.patterns import contact, dates, demographics, identifiers, occupations
from anonimed.detect.patterns.recognizer import DIGITS, SOURCE, Recognizer
from anonimed.document import Document, Span

RECOGNIZERS: tuple[Recognizer, ...] = (
    *contact.RECOGNIZERS,
    *identifiers.RECOGNIZERS,
    *dates.RECOGNIZERS,
    *demographics.RECOGNIZERS,
    *occupations.RECOGNIZERS,
)
_DIGIT = re.compile(r"[0-9]")
_BY_NAME = {r.name: r for r in RECOGNIZERS}
if len(_BY_NAME) != len(RECOGNIZERS):
    raise RuntimeError("pattern recognizer names must be unique")


def recognizer_labels() -> dict[str, str]:
    """Every recognizer's name and the MEDDOCAN label of its spans, in the detector's order."""
    return {r.name: r.label for r in RECOGNIZERS}


def select(names: Iterable[str] | None = None, labels: Iterable[str] | None = None) -> tuple[Recognizer, ...]:
    """The recognizers named in ``names`` (all when ``None``) whose label is in ``labels`` (any when ``None``)."""
    chosen = RECOGNIZERS
    if names is not None:
        names = list(names)
        unknown = [n for n in names if n not in _BY_NAME]
        if unknown:
            raise ValueError(f"unknown pattern recognizers {unknown}; known: {', '.join(_BY_NAME)}")
        chosen = tuple(_BY_NAME[n] for n in names)
    if labels is not None:
        wanted = set(labels)
        chosen = tuple(r for r in chosen if r.label in wanted)
    return chosen


def resolve(spans: Iterable[Span]) -> list[Span]:
    """Non-overlapping spans in reading order: the higher score, then the longer span, wins an overlap."""
    starts: list[int] = []
    kept: list[Span] = []  # sorted by start, parallel to ``starts``
    for span in sorted(spans, key=lambda s: (-s.score, -(s.end - s.start), s.start)):
        index = bisect.bisect_left(starts, span.start)
        if index > 0 and kept[index - 1].end > span.start:
            continue
        if index < len(kept) and kept[index].start < span.end:
            continue
        starts.insert(index, span.start)
        kept.insert(index, span)
    return kept


class PatternDetector:
    """Finds PHI with regular expressions and check characters (see :data:`RECOGNIZERS`).

    ``names`` and ``labels`` choose which recognizers run (all by default).  ``detect`` returns non-overlapping
    spans; ``matches`` returns every recognizer's spans, overlapping, for features that need to know who said what.
    """

    name = SOURCE

    def __init__(self, names: Iterable[str] | None = None, labels: Iterable[str] | None = None) -> None:
        self.recognizers = select(names, labels)

    def matches(self, text: str) -> list[tuple[str, Span]]:
        return [(recognizer.name, span) for recognizer, span in _find_all(self.recognizers, text)]

    def detect(self, document: Document) -> list[Span]:
        return resolve(span for _, span in _find_all(self.recognizers, document.text))


# How far a match may reach from its trigger: keys, values and the words around them are far shorter.
_REACH = 100


def _find_all(recognizers: Iterable[Recognizer], text: str) -> Iterator[tuple[Recognizer, Span]]:
    """Each recognizer's spans, searched only near its triggers (see :mod:`.recognizer`)."""
    regions = _Regions(text)
    for recognizer in recognizers:
        for start, end in regions.around(recognizer.triggers):
            for span in recognizer.find(text, start, end):
                yield recognizer, span


class _Regions:
    """The stretches of one text worth searching for given triggers."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lower = text.lower()
        self._digit_lines: list[tuple[int, int]] | None = None

    def around(self, triggers: tuple[str, ...]) -> list[tuple[int, int]]:
        if triggers == DIGITS:
            # Digits are everywhere: their windows would cover most lines anyway.
            return self.digit_lines()
        if len(self.lower) != len(self.text):
            # Lower-casing changed some length (``İ``), so positions in ``lower`` are not positions in ``text``.
            return [(0, len(self.text))] if any(t in self.lower for t in triggers) else []
        windows = []
        for trigger in triggers:
            position = self.lower.find(trigger)
            while position >= 0:
                windows.append((max(0, position - _REACH), min(len(self.text), position + len(trigger) + _REACH)))
                position = self.lower.find(trigger, position + 1)
        return _merged(windows)

    def digit_lines(self) -> list[tuple[int, int]]:
        """The lines that hold a digit (patterns triggered by digits never cross a line break)."""
        if self._digit_lines is None:
            self._digit_lines = []
            start = 0
            for line in self.text.split("\n"):
                end = start + len(line)
                if _DIGIT.search(line):
                    self._digit_lines.append((start, end))
                start = end + 1
        return self._digit_lines


def _merged(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching windows joined, in order (searching a stretch twice would find its spans twice)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(windows):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
