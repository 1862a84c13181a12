"""Composed (NFC) text with a map back to the original characters, so that detectors trained on composed text see
composed text while spans still point at the exact characters of the note as given.

A note typed or exported with decomposed accents (``Jose`` + U+0301) reads the same but is other characters: models
whose features and vocabularies come from composed text miss much of its PHI
(:class:`anonimed.detect.composed.ComposedText` runs them on the NFC form and moves their spans back).
"""

from __future__ import annotations

import unicodedata


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
