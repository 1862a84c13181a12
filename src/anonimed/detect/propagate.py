"""Find the other mentions of what a detector found: a name flagged once in a note is flagged wherever it recurs.

A model often finds a surname in the header (``Médico: Dr. Tomás Galindo``) and misses it later in the text
(``se comunica al Dr. Galindo``): the second mention then survives de-identification.  :class:`Propagator` wraps a
detector and adds a span, with the same type, at every other occurrence of

- the text of a detected span (4 characters or more), and
- each word of a detected name (patients, staff, relatives) that is rare in Spanish (``wordfreq`` Zipf frequency
  under 3.5: ``Galindo`` yes, ``Rosa`` or ``Blanco`` no) and has 4 letters or more,

matched on word boundaries, ignoring case, where no detected span already lies (a name of one word that is an
everyday word of Spanish or Catalan, Zipf 4.5 or more, only where it starts with a capital: the pediatrician Cabeza
is not ``la cabeza``, Dr. Font not ``la font d'angoixa``); a centre's acronym in parentheses
right after its name (``Complejo Hospitalario Universitario de Vigo (CHUVI)``: 4 of the 5 such acronyms of train and
dev are annotated with the centre's type); and each other word of 4 letters or more of a detected name, where it
follows a title and starts with a capital (``el Sr. Rivera``, ``DR. BLANCO``): frequent words are names there too. No
copy is made where the context rules PHI out (:func:`anonimed.detect.not_phi.never_phi`: ``familia`` in ``médico de
familia``). Added spans score a little below the span they copy and name the wrapped detector as their source.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Collection, Iterator
from dataclasses import replace
from functools import lru_cache

from anonimed.detect.base import Detector
from anonimed.detect.boundaries import CENTRE_TYPES, TITLES
from anonimed.detect.not_phi import NAME_TYPES, never_phi
from anonimed.document import Document, Span

MIN_CHARACTERS = 4
MAX_NAME_WORD_ZIPF = 3.5
# From this Zipf frequency in Spanish or Catalan a word is an everyday one (cabeza, font, sala) whatever name it also
# is: copied only where it is written with a capital.
COMMON_WORD_ZIPF = 4.5
SCORE_FACTOR = 0.9
_WORD = re.compile(r"[^\W\d_]{4,}")
_ACRONYM = re.compile(r"[ \t]*\((?P<acronym>[A-ZÁÉÍÓÚÑ][A-ZÁÉÍÓÚÑ0-9-]{1,9})\)")
_TITLE = rf"(?i:\b(?:{'|'.join(TITLES)})\b\.?[ \t]+)"
# A title and the run of letters after it, the run looked at but not taken (a title may start it: ``Dr. Don Luis``).
_TITLED_WORD = re.compile(_TITLE + r"(?=(?<!\w)(?P<key>[^\W\d_]+)(?!\w))")


@lru_cache(maxsize=100_000)
def _rare(word: str) -> bool:
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "es") < MAX_NAME_WORD_ZIPF


@lru_cache(maxsize=100_000)
def _everyday(word: str) -> bool:
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word.lower(), language) for language in ("es", "ca")) >= COMMON_WORD_ZIPF


class Propagator:
    """A detector that adds the other mentions of its wrapped detector's findings (see the module docstring)."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        found = self.detector.detect(document)
        return sorted(found + propagated(document.text, found))


def propagated(text: str, spans: list[Span]) -> list[Span]:
    """The new spans: centres' acronyms, and other occurrences of the spans' texts (acronyms included) and of their rare
    name words, where no span lies and PHI is possible."""
    acronyms = _acronyms(text, spans)
    return acronyms + _other_mentions(text, spans + acronyms)


def _acronyms(text: str, spans: list[Span]) -> list[Span]:
    found = []
    for span in spans:
        match = _ACRONYM.match(text, span.end) if span.label in CENTRE_TYPES else None
        if match and sum(c.isalpha() for c in match["acronym"]) >= 2:
            start, end = match.span("acronym")
            if not any(s.start < end and start < s.end for s in spans):
                found.append(replace(span, start=start, end=end, score=span.score * SCORE_FACTOR))
    return found


def _other_mentions(text: str, spans: list[Span]) -> list[Span]:
    wanted: dict[str, Span] = {}  # lower-cased text to find anywhere, and the span it copies (the best-scoring one)
    capitalised: dict[str, Span] = {}  # lower-cased everyday words to find where they start with a capital
    titled: dict[str, Span] = {}  # lower-cased name words to find after a title only
    for span in spans:
        candidates = [text[span.start : span.end].strip()]
        if span.label in NAME_TYPES:
            for word in _WORD.findall(text[span.start : span.end]):
                if _rare(word):
                    candidates.append(word)
                else:
                    _keep_best(titled, word.lower(), span)
        for candidate in candidates:
            if len(candidate) >= MIN_CHARACTERS:
                one_word = span.label in NAME_TYPES and _WORD.fullmatch(candidate) is not None
                _keep_best(capitalised if one_word and _everyday(candidate) else wanted, candidate.lower(), span)
    taken = sorted((s.start, s.end) for s in spans)
    starts = [start for start, _ in taken]
    reach = list(itertools.accumulate((end for _, end in taken), max))  # furthest end among the first i spans
    added: list[Span] = []
    for keys, titled_only in ((wanted, False), (capitalised, False), (titled, True)):
        if not keys:
            continue
        for start, end in _mentions(text, keys, titled_only):
            if keys is not wanted and not text[start].isupper():
                continue
            preceding = bisect.bisect_left(starts, end)  # the spans that start before this match ends
            if (preceding and reach[preceding - 1] > start) or any(s.start < end and start < s.end for s in added):
                continue
            # A case-insensitive match whose lower case differs from every key (rare letters) still gets masked.
            source = keys.get(text[start:end].lower()) or max(keys.values(), key=lambda span: span.score)
            copy = replace(source, start=start, end=end, score=source.score * SCORE_FACTOR)
            if not never_phi(text, copy):
                added.append(copy)
    return added


def _mentions(text: str, keys: Collection[str], titled_only: bool) -> Iterator[tuple[int, int]]:
    """Where the keys occur in ``text`` on word boundaries, ignoring case (after a title only, if ``titled_only``):
    the matches, in order and never overlapping, of the regular expression of :func:`_pattern`, found without
    compiling it (that cost more than all the rest of propagation) where lower-casing ``text`` matches as that
    pattern does."""
    if not _lowers_as_regex(text):
        for match in _pattern(keys, titled_only).finditer(text):
            yield match.span("key")
        return
    lowered = text.lower()
    if titled_only:
        taken_to = 0
        for match in _TITLED_WORD.finditer(text):
            start, end = match.span("key")
            if match.start() >= taken_to and lowered[start:end] in keys:
                taken_to = end
                yield start, end
        return
    # Every occurrence of every key on word boundaries; at one place the longest key wins (the pattern tries them
    # longest first), then the search goes on after it.
    found = []
    for rank, key in enumerate(sorted(keys, key=len, reverse=True)):
        start = lowered.find(key)
        while start >= 0:
            end = start + len(key)
            if not (start and _is_word(text[start - 1])) and not (end < len(text) and _is_word(text[end])):
                found.append((start, rank, end))
            start = lowered.find(key, start + 1)
    taken_to = 0
    for start, _, end in sorted(found):
        if start >= taken_to:
            taken_to = end
            yield start, end


def _pattern(keys: Collection[str], titled_only: bool) -> re.Pattern[str]:
    """The keys, longest first, on word boundaries, ignoring case; after a title if ``titled_only``."""
    alternatives = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    return re.compile((_TITLE if titled_only else "") + rf"(?<!\w)(?P<key>{alternatives})(?!\w)", re.IGNORECASE)


def _lowers_as_regex(text: str) -> bool:
    """Whether two substrings of ``text`` are equal ignoring case for the ``re`` module exactly when their lower
    case is equal, position for position: true when each character is Latin-1 or has no case.  (Beyond Latin-1,
    ``re`` also equates a few letters that ``lower`` keeps apart, like ``ſ`` and ``s``, ``µ`` and ``μ``, and
    ``lower`` may lengthen a letter: ``İ``.)"""
    return all(c <= "\xff" or c.lower() == c == c.upper() for c in set(text))


def _is_word(character: str) -> bool:
    """``re``'s ``\\w``."""
    return character.isalnum() or character == "_"


def _keep_best(keys: dict[str, Span], key: str, span: Span) -> None:
    if key not in keys or span.score > keys[key].score:
        keys[key] = span
