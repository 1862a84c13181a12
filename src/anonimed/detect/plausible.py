"""Spans a tagger flags that cannot be PHI by their shape or place in the note, whatever the note's template.

A model trained on MEDDOCAN's template learnt that a capitalised word after a line break is often a value of a key; on
notes written otherwise it flags sentence-initial verbs (``Ingresa``, ``Truca``), headings (``CURS CLÍNIC``,
``SOLICITUD DE INTERCONSULTA``), key names (``Telèfon:``) and runs of prose.  These rules are general, not lists of
those examples, and each holds for the annotated notes (a test applies them to MEDDOCAN train's gold spans):

- **no span crosses a line break**: a line ends a value (``67539363R`` + newline + ``Fecha``); the span keeps its
  first line;
- **a street has the shape of one**: a street span holds a street type (``calle``, ``c/``, ``carrer``, ``avda.``) or
  ``s/n``, or a capitalised word (``Irunlarrea, 3``), or, when longer than four words, is made of capitalised words
  (859 of the 862 gold streets of MEDDOCAN train: the others are e-mail addresses filed as streets); Catalan prose,
  ``ta 150/85,sat 88`` or a lab result is not a street;
- **a person's name holds no function word**: it ends before ``por``, ``para``, ``con``, ``que``… (``SE COMUNICA
  AL DR. GALINDO POR TELÉFONO``: the name is ``GALINDO``);
- **a phone number keeps its country code** (``+34 676 902 118``, not ``676 902 118``);
- **a key is layout**: a span that starts a line and is followed by a colon is the line's key, not its value;
- **a sentence's first word is not a name or a place** when it runs on into a lower-case word (``Refereix dolor``,
  ``Truca la filla``) and no list of names or places knows it;
- **a heading is not a name or a place**: a line in capitals that a span fills, with no word that a list of names or
  places knows (``SOLICITUD DE INTERCONSULTA``, ``CURS CLÍNIC``);
- **prose in lower case is not a name or a place**: in a note that capitalises its names elsewhere, a lower-case
  word of four letters or more that no list knows (``firmo el presente``, ``a efectos de su empresa``); in a note
  written in lower case, lower-case words of which none is known and one is a common word (``se recomienda q``).

Centres (``Hospital del Mar``) and relatives (``su esposa``) are made of common words by nature and are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from anonimed.detect.base import Detector
from anonimed.document import Document, Span

PHONE_TYPES = frozenset({"NUMERO_TELEFONO", "NUMERO_FAX"})
# A country code right before a number: +34, 0034, (+34), (34).
_COUNTRY_CODE = re.compile(r"(?<![\w+])(?:\+\d{1,3}|00\d{1,3}|\(\+?\d{1,4}\))[ \t.-]?$")
PERSON_TYPES = frozenset({"NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO"})
PLACE_TYPES = frozenset({"TERRITORIO", "CALLE", "PAIS"})
STREET = "CALLE"
# Zipf frequency (wordfreq) from which a word is a common word of Spanish or Catalan.
COMMON_WORD = 3.5
_WORD = re.compile(r"[^\W\d_]+")
# Words that no person's name holds (articles, which some do hold, such as El Kadaoui, are left out).
_NOT_IN_NAMES = frozenset(
    "por para con sin que al en se le lo su sus es ha muy tras desde hasta per amb els ho li hi".split()
)
_PARTICLES = frozenset("de del la las los el y i e d l da dos sant san santa".split())


@cache
def _known_words() -> frozenset[str]:
    """Given names, surnames, provinces, their capitals, regions and countries that Faker ships, folded to lower
    case: words that may name someone or somewhere even when they are common words (``Rosa``, ``León``)."""
    from anonimed.transform.surrogates import pools
    from anonimed.transform.surrogates.places import provinces

    words: set[str] = set()
    names = [*pools.given_name_genders(), *pools.surnames().values, *pools.regions(), *pools.countries().values]
    names += [place for pair in provinces().values() for place in pair]
    for name in names:
        words.update(word.lower() for word in _WORD.findall(name))
    return frozenset(words)


def _own_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text) if w.lower() not in _PARTICLES and len(w) > 1]


def _known(word: str) -> bool:
    return word.lower() in _known_words()


def _opens_a_clause(text: str, span: Span) -> bool:
    """A single capitalised word that starts a sentence or a line and runs on into a lower-case word (``Refereix
    dolor``, ``Truca la filla``): a verb or a noun of the sentence, unless a list of names or places knows it."""
    covered = text[span.start : span.end]
    if len(_WORD.findall(covered)) != 1 or not covered[:1].isupper() or covered.isupper() or _known(covered):
        return False
    before = text[: span.start].rstrip(" \t")
    starts = not before or before[-1] in "\n\r.!?:;"
    return starts and re.match(r"[ \t]+[a-zà-ÿ]", text[span.end :]) is not None


def _lower_case_prose(covered: str) -> bool:
    """A lower-case word of four letters or more that no name or place list knows (``a efectos de su empresa``)."""
    return any(w.islower() and len(w) >= 4 and not _known(w) for w in _own_words(covered))


def _common_prose(covered: str) -> bool:
    """Lower-case words of which none names anyone or anywhere that a list knows and one at least is a common word
    (``se recomienda q``, ``cardiologia de guardia``): prose, in a note written all in lower case."""
    from anonimed.rules.gazetteers import CommonWords

    words = _own_words(covered)
    common = CommonWords()
    return covered.islower() and not any(_known(w) for w in words) and any(w in common for w in words)


def _heading(text: str, span: Span) -> bool:
    """A line in capitals that the span fills (its colon aside) and none of whose words names anyone or anywhere
    that a list knows: ``SOLICITUD DE INTERCONSULTA``, ``CURS CLÍNIC``."""
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    line = text[line_start : line_end if line_end >= 0 else len(text)].strip().rstrip(":").strip()
    covered = text[span.start : span.end]
    words = _own_words(covered)
    return line == covered and covered.isupper() and bool(words) and not any(_known(w) for w in words)


def _capitalises_names(text: str) -> bool:
    """Whether the note writes capitalised words inside its sentences (a note all in capitals or all in lower case
    does not: there case tells nothing)."""
    inner = re.findall(r"(?<=[a-zà-ÿ,;] )[A-ZÀ-Ý][a-zà-ÿ]+", text)
    return len(inner) >= 2


def _street_shaped(covered: str) -> bool:
    """Whether a street span looks like one (see the module docstring)."""
    from anonimed.rules.gazetteers import street_types
    from anonimed.rules.language import fold

    words = _WORD.findall(covered)
    if re.search(r"(?i)\bs/n\b", covered) or any(fold(w) in street_types() for w in words):
        return True
    capitalised = [w for w in words if w[0].isupper()]
    if len(words) <= 4:
        return bool(capitalised)
    prose = [w for w in words if w.islower() and len(w) >= 4 and w not in _PARTICLES]
    return len(capitalised) >= 2 and not prose


def _with_country_code(text: str, span: Span) -> Span:
    """A phone number keeps the country code written before it (``+34 676 902 118``, ``(0034) 93…``)."""
    if span.start > 0 and text[span.start - 1] == "+" and text[span.start : span.start + 1].isdigit():
        return Span(span.start - 1, span.end, span.label, span.score, span.source)  # the + of +34 left out
    code = _COUNTRY_CODE.search(text, max(0, span.start - 12), span.start)
    if code is None:
        return span
    return Span(code.start(), span.end, span.label, span.score, span.source)


def _name_part(text: str, span: Span) -> Span | None:
    """A person's name ends before a word that no name holds (``DR. GALINDO POR TELÉFONO`` → ``GALINDO``)."""
    for match in _WORD.finditer(text, span.start, span.end):
        if match.start() > span.start and match.group().lower() in _NOT_IN_NAMES:
            end = span.start + len(text[span.start : match.start()].rstrip(" \t,;:-("))
            return Span(span.start, end, span.label, span.score, span.source) if end > span.start else None
    return span


def _first_line(text: str, span: Span) -> Span | None:
    covered = text[span.start : span.end]
    cut = min((covered.find(c) for c in "\n\r\u2028\u2029\x0b\x0c" if c in covered), default=-1)
    if cut < 0:
        return span
    end = span.start + len(covered[:cut].rstrip())
    return Span(span.start, end, span.label, span.score, span.source) if end > span.start else None


def _is_key(text: str, span: Span) -> bool:
    line_start = text.rfind("\n", 0, span.start) + 1
    return not text[line_start : span.start].strip() and re.match(r"[ \t]*:", text[span.end :]) is not None


def plausible(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without those that cannot be PHI (see the module docstring), cut at their first line break."""
    capitalised = _capitalises_names(text)
    kept = []
    for original in spans:
        span = _first_line(text, original)
        if span is not None and span.label in PERSON_TYPES:
            span = _name_part(text, span)
        if span is not None and span.label in PHONE_TYPES:
            span = _with_country_code(text, span)
        if span is None or _is_key(text, span):
            continue
        covered = text[span.start : span.end]
        if span.label == STREET and not _street_shaped(covered):
            continue
        if span.label in PERSON_TYPES | PLACE_TYPES and (_opens_a_clause(text, span) or _heading(text, span)):
            continue
        # Streets keep lower-case words of their own (bajo, izquierda, baixos), and are judged by their shape.
        if (
            span.label != STREET
            and span.label in PERSON_TYPES | PLACE_TYPES
            and (_lower_case_prose(covered) if capitalised else _common_prose(covered))
        ):
            continue
        kept.append(span)
    return kept


class PlausibleSpans:
    """A detector whose spans go through :func:`plausible` (name and source: the wrapped detector's)."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        return plausible(document.text, self.detector.detect(document))
