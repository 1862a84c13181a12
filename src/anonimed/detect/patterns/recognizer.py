"""One recognizer: a compiled regular expression, the MEDDOCAN label of what it finds and how sure it is.

A recognizer's span is the pattern's ``value`` group when it has one (the key before it, ``NHC:``, is context and
not PHI) and the whole match otherwise.  A ``split`` pattern cuts a value holding a list (``Telfs.: 1 / 2 / 3``) into
one span an item.  A ``check`` validates an item where its format has a check character: it returns a factor in
[0, 1] that multiplies the score (0 rejects the item).

Speed: a regular expression that does not begin with a literal is tried at every character, which costs far more
than the match itself.  So each recognizer names ``triggers``, lower-case strings one of which every match
contains, and runs only within 100 characters of them; a recognizer triggered by ``DIGITS`` runs on the lines that
hold a digit, so its pattern must not cross a line break.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from anonimed.document import Span
from anonimed.schema import PHI_TYPES

SOURCE = "patterns"
# The trigger of recognizers whose matches hold a digit.
DIGITS = tuple("0123456789")

Check = Callable[[str], float]


def phrase_alternation(phrases: Iterable[str]) -> str:
    """A regular expression matching any of ``phrases`` (a space in one matches spaces and tabs), written as a trie:
    ``pint(?:or(?:a)?|ora)``-like rather than ``a|b|c``.  A list of a thousand phrases compiles in half the time
    and, where the expression is not anchored, is searched some thirty times faster.  Where several phrases match at
    one place, the longest is tried first, as in an alternation sorted longest first."""
    trie: dict[str, dict] = {}
    for phrase in phrases:
        node = trie
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}  # a phrase ends here

    def expression(node: dict[str, dict]) -> str:
        branches = [
            (r"[ \t]+" if char == " " else re.escape(char)) + expression(child)
            for char, child in sorted(node.items())
            if char
        ]
        alternatives = "|".join(branches)
        if not branches or "" not in node:
            return alternatives if len(branches) < 2 else f"(?:{alternatives})"
        # Ending here is the last choice (a greedy ``?``): the longer phrases through this node are tried first.
        return f"{alternatives}?" if len(alternatives) == 1 else f"(?:{alternatives})?"

    return expression(trie)


@dataclass(frozen=True)
class Recognizer:
    name: str
    label: str
    pattern: re.Pattern[str]
    score: float
    triggers: tuple[str, ...]
    check: Check | None = None
    split: re.Pattern[str] | None = None

    def __post_init__(self) -> None:
        if self.label not in PHI_TYPES:
            raise ValueError(f"recognizer {self.name!r}: unknown MEDDOCAN label {self.label!r}")
        if not 0.0 < self.score <= 1.0:
            raise ValueError(f"recognizer {self.name!r}: score {self.score} is not in (0, 1]")
        if not self.triggers or any(t != t.lower() for t in self.triggers):
            raise ValueError(f"recognizer {self.name!r}: triggers must be a non-empty tuple of lower-case strings")

    def find(self, text: str, start: int = 0, end: int | None = None) -> Iterator[Span]:
        """The spans of ``text[start:end]`` (the text around it still counts for look-behinds)."""
        has_value = "value" in self.pattern.groupindex
        for match in self.pattern.finditer(text, start, len(text) if end is None else end):
            value_start, value_end = match.span("value") if has_value else match.span()
            if value_start < 0 or value_start == value_end:
                continue
            if self.split is None:
                items = [(value_start, value_end)]
            else:
                items = [m.span() for m in self.split.finditer(text, value_start, value_end)]
            for item_start, item_end in items:
                factor = 1.0 if self.check is None else self.check(text[item_start:item_end])
                if factor > 0.0:
                    yield Span(item_start, item_end, self.label, round(self.score * factor, 3), SOURCE)


def first_digit(not_after: str) -> str:
    """A digit not preceded by a character of the class ``not_after``.

    Written as a digit first and the look-behind second, so that the regex engine jumps from digit to digit instead
    of trying the look-behind at every character (about twice as fast on clinical text).
    """
    return rf"[0-9](?<!{not_after}[0-9])"


# Between a key and its value: ``:``, ``.``, ``-``, ``.-`` or nothing, and the value may start the next line (the
# radiology layout puts every value under its key).
KEY_GAP = r"[ \t]*[:.]?-?[ \t]*(?:\n[ \t]*)?"


def keyed(key: str, value: str, gap: str = KEY_GAP, start: str = r"\b") -> str:
    """``key`` (a whole word: ``start`` before it, no letter after it), then ``gap``, then ``value`` as the ``value``
    group.

    The key is matched case-insensitively; the value keeps the flags of the whole pattern.
    """
    return rf"{start}(?i:{key})(?![^\W\d_]){gap}(?P<value>{value})"
