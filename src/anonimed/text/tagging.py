"""Token-level tag sequences (BIO and BIOES) to and from character spans.

Encoding assigns each span to the tokens that lie inside it; a token that only partly overlaps a span is tagged as
inside it too, so no PHI character is ever left outside the tags (the tokenizer makes such cases rare: see
``tests/test_tokenize.py``).  Decoding repairs invalid sequences the way most taggers do: an ``I-X``/``E-X`` that
does not continue an open ``X`` entity starts a new one, and an entity that is left open is closed where it stops.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Literal

from anonimed.document import Span
from anonimed.text.tokenize import Token

Scheme = Literal["BIO", "BIOES"]
OUTSIDE = "O"


def _check_scheme(scheme: str) -> None:
    if scheme not in ("BIO", "BIOES"):
        raise ValueError(f"unknown tagging scheme {scheme!r}: use 'BIO' or 'BIOES'")


def spans_to_tags(tokens: Sequence[Token], spans: Sequence[Span], scheme: Scheme = "BIOES") -> list[str]:
    """Tags of ``tokens`` for ``spans``; where spans overlap, the longer one wins its tokens."""
    _check_scheme(scheme)
    tags = [OUTSIDE] * len(tokens)
    starts = [t.start for t in tokens]
    for span in sorted(spans, key=lambda s: (-(s.end - s.start), s.start)):
        first = bisect.bisect_right(starts, span.start) - 1
        if first < 0 or tokens[first].end <= span.start:
            first += 1
        covered = []
        index = first
        while index < len(tokens) and tokens[index].start < span.end:
            if tags[index] == OUTSIDE:
                covered.append(index)
            index += 1
        if not covered:
            continue
        for position, token_index in enumerate(covered):
            if len(covered) == 1:
                prefix = "S" if scheme == "BIOES" else "B"
            elif position == 0:
                prefix = "B"
            elif position == len(covered) - 1:
                prefix = "E" if scheme == "BIOES" else "I"
            else:
                prefix = "I"
            tags[token_index] = f"{prefix}-{span.label}"
    return tags


def _split(tag: str) -> tuple[str, str | None]:
    if tag == OUTSIDE:
        return OUTSIDE, None
    prefix, sep, label = tag.partition("-")
    if not sep or prefix not in ("B", "I", "E", "S") or not label:
        raise ValueError(f"invalid tag {tag!r}: expected O or B-/I-/E-/S- followed by a label")
    return prefix, label


def repair(tags: Sequence[str], scheme: Scheme = "BIOES") -> list[str]:
    """A valid sequence of the same entities: orphan ``I-X``/``E-X`` open a new entity, open entities are closed."""
    _check_scheme(scheme)
    spans = tags_to_token_ranges(tags)
    fixed = [OUTSIDE] * len(tags)
    for first, last, label in spans:
        for index in range(first, last + 1):
            if first == last:
                prefix = "S" if scheme == "BIOES" else "B"
            elif index == first:
                prefix = "B"
            elif index == last:
                prefix = "E" if scheme == "BIOES" else "I"
            else:
                prefix = "I"
            fixed[index] = f"{prefix}-{label}"
    return fixed


def tags_to_token_ranges(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """Entities of a tag sequence as ``(first_token, last_token, label)``, repairing as described above.

    Works for BIO and BIOES alike: ``S`` and ``E`` close an entity, ``B`` opens one, ``I``/``E`` continue an open
    entity of the same label and otherwise open a new one.
    """
    entities: list[tuple[int, int, str]] = []
    open_first: int | None = None
    open_label: str | None = None

    def close(last: int) -> None:
        nonlocal open_first, open_label
        if open_first is not None and open_label is not None:
            entities.append((open_first, last, open_label))
        open_first, open_label = None, None

    for index, tag in enumerate(tags):
        if tag == OUTSIDE:  # most tokens: nothing to split, and only an open entity to close
            if open_first is not None:
                close(index - 1)
            continue
        prefix, label = _split(tag)
        if prefix == "S":
            close(index - 1)
            entities.append((index, index, label))  # type: ignore[arg-type]
        elif prefix == "B" or open_label != label:
            close(index - 1)
            open_first, open_label = index, label
            if prefix == "E":
                close(index)
        elif prefix == "E":
            close(index)
    close(len(tags) - 1)
    return entities


def tags_to_spans(
    tokens: Sequence[Token],
    tags: Sequence[str],
    scores: Sequence[float] | None = None,
    source: str = "tagger",
) -> list[Span]:
    """Character spans of a (possibly invalid) tag sequence; a span's score is the mean of its tokens' scores."""
    if len(tokens) != len(tags):
        raise ValueError(f"{len(tokens)} tokens but {len(tags)} tags")
    spans = []
    for first, last, label in tags_to_token_ranges(tags):
        score = 1.0 if scores is None else sum(scores[first : last + 1]) / (last - first + 1)
        spans.append(Span(tokens[first].start, tokens[last].end, label, score, source))
    return spans
