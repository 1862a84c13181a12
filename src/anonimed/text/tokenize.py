"""Offset-preserving tokenizer for clinical Spanish and Catalan.

Tokens are runs of letters, runs of digits and single punctuation or symbol characters, with letter runs also cut
where a lower-case letter meets an upper-case one
(``NºCol``) or an upper-case run meets a capitalised word (``DRAlberto``).  That fine grain is deliberate: glued header fields (``cp:28007``,
``NºCol:28``), e-mails, dates and phone numbers come apart at every place where a PHI span may begin or end, and the
sequence models learn to put the pieces back together.  Whitespace is never part of a token.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import NamedTuple

# A letter run keeps the combining marks that follow its letters (U+0300–U+036F: accents, tilde, diaeresis, cedilla),
# so that a name typed with decomposed accents ("Jose" + U+0301) stays one token, as its composed spelling is.
_PIECE = re.compile(r"(?:[^\W\d_][\u0300-\u036f]*)+|\d+|[^\w\s]|_", re.UNICODE)


class Token(NamedTuple):
    """A token and its offsets (a named tuple: a note has hundreds, made several times faster than a dataclass)."""

    start: int
    end: int
    text: str


def _split_camel(start: int, run: str) -> list[Token]:
    cuts = [
        i
        for i in range(1, len(run))
        if run[i].isupper()
        and (
            run[i - 1].islower()
            or (run[i - 1].isupper() and run[i + 1 : i + 3].islower() and len(run[i + 1 : i + 3]) == 2)
        )
    ]
    if not cuts:
        return [Token(start, start + len(run), run)]
    bounds = [0, *cuts, len(run)]
    return [Token(start + a, start + b, run[a:b]) for a, b in itertools.pairwise(bounds)]


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens; ``text[t.start:t.end] == t.text`` for every token.

    The detectors of a model each tokenize the same note: the last notes' tokens are kept (a new list each call, so
    a caller may change its own)."""
    return list(_tokenize_cached(text))


@lru_cache(maxsize=8)
def _tokenize_cached(text: str) -> tuple[Token, ...]:
    return tuple(_tokenize(text))


def _tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    for match in _PIECE.finditer(text):
        piece = match.group()
        # Only a letter run with a capital after its first letter and some lower case can be cut (most runs are
        # lower-case words, capitalised words or capitals alone: one token each).
        if piece[0].isalpha() and len(piece) > 1 and not (piece[1:].islower() or piece.isupper()):
            tokens.extend(_split_camel(match.start(), piece))
        else:
            tokens.append(Token(match.start(), match.end(), piece))
    return tokens
