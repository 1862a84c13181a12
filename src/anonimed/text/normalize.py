"""The form of a note that the models read, with a map back to the original characters, so that detectors see the
spelling they learnt while spans still point at the exact characters of the note as given.

- **Composed (NFC) text**: a note typed or exported with decomposed accents (``Jose`` + U+0301) reads the same but
  is other characters: models whose features and vocabularies come from composed text miss much of its PHI.
- **Catalan ``l·l`` read as ``ll``**: the tokenizer cuts words at punctuation, so ``Camil·la``, ``Til·lers`` or
  ``Paral·lel`` reached the models as three tokens (``Camil``, ``·``, ``la``), the last one an article, and spans
  stopped inside the word (``Residència Els Til``).
- **Values under a row of keys** written after their keys, one ``key: value`` line each
  (:mod:`anonimed.text.columns`).

:class:`anonimed.detect.composed.ComposedText` runs the detectors on this form and moves their spans back.
"""

from __future__ import annotations

import re
import unicodedata

from anonimed.text.columns import keyed_values

# The middle dot of the Catalan geminate l (and the hyphenation point some keyboards put there), between two l's.
_GEMINATE_DOT = re.compile(r"(?<=[lL])[\u00b7\u2027](?=[lL])")


def composed(text: str) -> tuple[str, list[int], list[int]] | None:
    """``None`` when ``text`` is already NFC; otherwise the NFC text and, for each of its characters, where its source
    starts and ends in ``text``.

    The text is composed cluster by cluster (a character and the combining marks after it); in the rare scripts where
    that differs from composing the whole text (Hangul jamo), nothing is composed and ``None`` is returned too.
    """
    if unicodedata.is_normalized("NFC", text):
        return None
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    cluster_start = 0
    for index in range(1, len(text) + 1):
        if index < len(text) and unicodedata.combining(text[index]):
            continue
        piece = unicodedata.normalize("NFC", text[cluster_start:index])
        if len(piece) == index - cluster_start:  # nothing composed: one character each
            starts.extend(range(cluster_start, index))
            ends.extend(range(cluster_start + 1, index + 1))
        else:
            starts.extend([cluster_start] * len(piece))
            ends.extend([index] * len(piece))
        pieces.append(piece)
        cluster_start = index
    result = "".join(pieces)
    return (result, starts, ends) if result == unicodedata.normalize("NFC", text) else None


def detection_form(text: str) -> tuple[str, list[int], list[int]] | None:
    """``None`` when the models read ``text`` as it is; otherwise the text they read (composed, the dot of each
    ``l·l`` left out, values under a row of keys written after their keys) and, for each of its characters, where its
    source starts and ends in ``text`` (a left-out dot belongs to the ``l`` before it, so a span that ends there or
    goes on covers it; a key written before its value starts and ends where the value starts)."""
    mapping = composed(text)
    form, starts, ends = mapping if mapping is not None else (text, range(len(text)), range(1, len(text) + 1))
    dots = [match.start() for match in _GEMINATE_DOT.finditer(form)]
    if dots:
        starts, ends = list(starts), list(ends)
        for dot in reversed(dots):
            ends[dot - 1] = ends[dot]
            del starts[dot], ends[dot]
        form = _GEMINATE_DOT.sub("", form)
    keyed = keyed_values(form)
    if keyed is not None:
        form, keyed_starts, keyed_ends = keyed

        def source(position: int) -> int:
            return starts[position] if position < len(starts) else len(text)

        starts, ends = (
            [source(start) for start in keyed_starts],
            [ends[end - 1] if end > start else source(start) for start, end in zip(keyed_starts, keyed_ends)],
        )
    if mapping is None and not dots and keyed is None:
        return None
    return form, list(starts), list(ends)
