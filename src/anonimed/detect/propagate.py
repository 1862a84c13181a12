"""Find the other mentions of what a detector found: a name flagged once in a note is flagged wherever it recurs.

A model often finds a surname in the header (``Médico: Dr. Tomás Galindo``) and misses it later in the text
(``se comunica al Dr. Galindo``): the second mention then survives de-identification.  :class:`Propagator` wraps a
detector and adds a span, with the same type, at every other occurrence of

- the text of a detected span (4 characters or more), and
- each word of a detected name (patients, staff, relatives) that is rare in Spanish (``wordfreq`` Zipf frequency
  under 3.5: ``Galindo`` yes, ``Rosa`` or ``Blanco`` no) and has 4 letters or more,

matched on word boundaries, ignoring case, where no detected span already lies.  Added spans score a little below
the span they copy and name the wrapped detector as their source.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import replace
from functools import lru_cache

from anonimed.detect.base import Detector
from anonimed.document import Document, Span

NAME_TYPES = frozenset({"NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO", "FAMILIARES_SUJETO_ASISTENCIA"})
MIN_CHARACTERS = 4
MAX_NAME_WORD_ZIPF = 3.5
SCORE_FACTOR = 0.9
_WORD = re.compile(r"[^\W\d_]{4,}")


@lru_cache(maxsize=100_000)
def _rare(word: str) -> bool:
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "es") < MAX_NAME_WORD_ZIPF


class Propagator:
    """A detector that adds the other mentions of its wrapped detector's findings (see the module docstring)."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        found = self.detector.detect(document)
        return sorted(found + propagated(document.text, found))


def propagated(text: str, spans: list[Span]) -> list[Span]:
    """The new spans: other occurrences of the spans' texts and of their rare name words, where no span lies."""
    wanted: dict[str, Span] = {}  # lower-cased text to find, and the span it copies (the best-scoring one)
    for span in spans:
        candidates = [text[span.start : span.end].strip()]
        if span.label in NAME_TYPES:
            candidates += [w for w in _WORD.findall(text[span.start : span.end]) if _rare(w)]
        for candidate in candidates:
            key = candidate.lower()
            if len(key) >= MIN_CHARACTERS and (key not in wanted or span.score > wanted[key].score):
                wanted[key] = span
    if not wanted:
        return []
    taken = sorted((s.start, s.end) for s in spans)
    starts = [start for start, _ in taken]
    reach = list(itertools.accumulate((end for _, end in taken), max))  # furthest end among the first i spans
    pattern = re.compile(
        r"(?<!\w)(" + "|".join(re.escape(k) for k in sorted(wanted, key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE
    )
    added: list[Span] = []
    for match in pattern.finditer(text):  # matches never overlap one another
        start, end = match.span()
        before = bisect.bisect_left(starts, end)  # the spans that start before this match ends
        if before and reach[before - 1] > start:
            continue
        # A case-insensitive match whose lower case differs from every key (rare letters) still gets masked.
        source = wanted.get(match.group().lower()) or max(wanted.values(), key=lambda span: span.score)
        added.append(replace(source, start=start, end=end, score=source.score * SCORE_FACTOR))
    return added
