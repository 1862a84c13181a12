"""Offset-preserving sentence splitter for clinical Spanish and Catalan.

Rules, in order:

- a line break always ends a sentence (clinical notes put one header field or one paragraph on a line);
- inside a line, a run of ``.``, ``?`` or ``!`` (closing quotes or brackets may follow it) ends a sentence when
  whitespace and then a capital letter, or ``¿``/``¡``/an opening quote before a capital, follow;
- a single ``.`` after a known abbreviation (``Dr.``, ``Sra.``, ``Avda.``...) or after a lone letter (the initial in
  ``J. García``) does not end a sentence, nor does the ``.`` of a list marker at the start of a sentence (``1. Xxx``).

Decimal numbers (``1.16``), dates (``10.10.1963``) and ``c/ Mayor`` need no rule: their ``.`` or ``/`` is not
followed by whitespace and a capital.  Sentences are trimmed of whitespace (and a byte-order mark); blank lines give
no sentence.
"""

from __future__ import annotations

import re

# Lower-cased, without the final period.  Only abbreviations that are commonly followed by a capitalised word:
# titles, street types, "número", "teléfono"...  ``etc`` is left out on purpose: it usually ends a sentence.
ABBREVIATIONS = frozenset(
    """
    dr dra drs dras sr sra sres sras srta d dña dª dn ud uds vd vds prof profa lic
    avda av avd c cl pl pza pº ps ctra urb bo edif esc dcha izda izq
    n nº núm num tel telf tfno apdo dpto dept hosp col prov
    pág pag p pp aprox vs ej fdo
    """.split()
)

_LINE = re.compile(r"[^\r\n]+")
_END_MARK = re.compile(r"[.?!]+[\"'”»)\]]*(?=\s+[¿¡\"'“«(]?(\w))")
_WORD_BEFORE = re.compile(r"(\w+)\Z")
_LIST_MARKER = re.compile(r"\s*(\d{1,2}|[a-zA-Z])\Z")
_BLANK = " \t\f\v\ufeff\u00a0\u2028\u2029"


def split_sentences(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` character range of every sentence of ``text``, in order (``end`` exclusive)."""
    sentences: list[tuple[int, int]] = []
    for line in _LINE.finditer(text):
        start = line.start()
        for cut in _sentence_ends(text, line.start(), line.end()):
            _append_trimmed(sentences, text, start, cut)
            start = cut
        _append_trimmed(sentences, text, start, line.end())
    return sentences


def _sentence_ends(text: str, line_start: int, line_end: int) -> list[int]:
    ends = []
    sentence_start = line_start
    for mark in _END_MARK.finditer(text, line_start, line_end):
        if not text[mark.start(1)].isupper():
            continue
        before = text[sentence_start : mark.start()]
        if mark.group().startswith(".") and not mark.group().startswith(".."):
            word = _WORD_BEFORE.search(before)
            if word and (
                word.group(1).lower() in ABBREVIATIONS or (len(word.group(1)) == 1 and word.group(1).isalpha())
            ):
                continue
            if _LIST_MARKER.fullmatch(before):
                continue
        ends.append(mark.end())
        sentence_start = mark.end()
    return ends


def _append_trimmed(sentences: list[tuple[int, int]], text: str, start: int, end: int) -> None:
    while start < end and (text[start].isspace() or text[start] in _BLANK):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _BLANK):
        end -= 1
    if start < end:
        sentences.append((start, end))
