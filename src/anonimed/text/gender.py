"""The feminine form of a Spanish job title, for the occupation patterns (which must find ``profesora`` as well as
``profesor``) and for occupation surrogates (which keep the original's gender: ``enfermera`` becomes ``abogada``)."""

from __future__ import annotations

import re

_IRREGULAR = {"actor": "actriz", "alcalde": "alcaldesa", "poeta": "poetisa", "juez": "jueza"}
_REGULAR = re.compile(r"(or|ero|és|o)$")
_ENDINGS = {"or": "ora", "ero": "era", "és": "esa", "o": "a"}
_LINKS = frozenset({"de", "del", "en", "y", "e", "para", "con", "a", "al"})


def feminine_title(title: str) -> str:
    """``title`` in the feminine: its first word and the adjectives right after it (``Ingeniero metalúrgico de
    minas`` -> ``Ingeniera metalúrgica de minas``, ``actor`` -> ``actriz``); words of both genders (``agente``,
    ``periodista``, ``civil``) are left as they are."""
    words = title.split(" ")
    for index, word in enumerate(words):
        if word.lower() in _LINKS:
            break
        irregular = _IRREGULAR.get(word.lower())
        if irregular is not None:
            words[index] = irregular.capitalize() if word[:1].isupper() else irregular
        else:
            words[index] = _REGULAR.sub(lambda m: _ENDINGS[m.group(1)], word)
    return " ".join(words)


def is_feminine_head(title: str, masculine_heads: frozenset[str]) -> bool:
    """Whether ``title``'s first word is a feminine job word: the feminine of a word of ``masculine_heads`` (lower
    case; ``abogada``, ``médica``, ``actriz``) or of any word in -or, -ero, -és (``profesora``, ``enfermera``);
    ``periodista`` or ``agente`` (both genders) are not."""
    head = title.partition(" ")[0].lower()
    if head in masculine_heads:
        return False
    if head.endswith(("ora", "era", "esa")):
        return True
    masculine = [m for m, f in _IRREGULAR.items() if f == head] + ([head[:-1] + "o"] if head.endswith("a") else [])
    return any(m in masculine_heads for m in masculine)
