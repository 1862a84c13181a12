"""Small text helpers shared by the surrogate generators: normalised comparison keys and case copying."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """A comparison key: accents stripped, case folded, spaces collapsed (``"MARÍA  José"`` -> ``"maria jose"``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def ascii_word(text: str) -> str:
    """Lower-case ASCII letters and digits only, as in e-mail addresses and domains (``"Núñez"`` -> ``"nunez"``)."""
    return "".join(c for c in fold(text) if c.isascii() and c.isalnum())


def match_case(original: str, replacement: str) -> str:
    """``replacement`` written in the case style of ``original``: all capitals, all lower case, or as generated."""
    letters = [c for c in original if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return replacement.upper()
    if letters and all(c.islower() for c in letters):
        return replacement.lower()
    if letters and letters[0].islower():
        return replacement[:1].lower() + replacement[1:]
    if letters and letters[0].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement
