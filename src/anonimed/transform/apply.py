"""Put the operators' replacements into the text and move every span to where its replacement landed."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace

from anonimed.document import Document, Span
from anonimed.transform.config import OperatorPlan
from anonimed.transform.surrogates import SurrogateContext


@dataclass(frozen=True)
class Replacement:
    """One replaced span: where it was, where its replacement is (None when it was removed), and what was done."""

    input: Span
    output: Span | None
    operator: str
    original: str
    replacement: str


@dataclass(frozen=True)
class Transformed:
    text: str
    replacements: tuple[Replacement, ...]

    @property
    def spans(self) -> list[Span]:
        return [r.output for r in self.replacements if r.output is not None]


def covering_spans(spans: Iterable[Span]) -> list[Span]:
    """The spans in reading order, each group of overlapping ones merged into a single span from the group's first
    character to its last, labelled (and scored) as its longest, then most confident, member.

    Fail-closed: keeping only the longest of two partly overlapping spans would leave the other's outer characters
    (``Ana Ros`` + ``Ros Pla``: ``Pla``) in the output.
    """
    groups: list[tuple[list[Span], int]] = []  # each group of overlapping spans, and where its last one ends
    for span in sorted(spans):
        if groups and span.start < groups[-1][1]:
            members, end = groups[-1]
            members.append(span)
            groups[-1] = (members, max(end, span.end))
        else:
            groups.append(([span], span.end))
    merged = []
    for members, end in groups:
        best = min(members, key=lambda s: (-(s.end - s.start), -s.score, s.start))
        merged.append(best if len(members) == 1 else replace(best, start=members[0].start, end=end))
    return merged


def apply_plan(document: Document, plan: OperatorPlan, context: SurrogateContext) -> Transformed:
    """The document's text with each of its spans replaced by its operator (spans in reading order, so that a
    surrogate can build on the ones before it: an e-mail address on the name of the doctor named just before).

    Overlapping spans are replaced as one (:func:`covering_spans`): no character of any span is left as it was.
    """
    pieces: list[str] = []
    replacements: list[Replacement] = []
    cursor = length = 0
    for span in covering_spans(document.spans):
        between = document.text[cursor : span.start]
        pieces.append(between)
        length += len(between)
        original = document.span_text(span)
        operator = plan.operator_for(span.label)
        # Operators see the composed (NFC) form: a name typed with decomposed accents gets the same surrogate or hash
        # as its usual spelling, and no combining accent of the original is carried into the replacement.
        new = operator.replace(unicodedata.normalize("NFC", original), span.label, context)
        output = Span(length, length + len(new), span.label, span.score, span.source) if new else None
        pieces.append(new)
        length += len(new)
        cursor = span.end
        replacements.append(Replacement(span, output, operator.name, original, new))
    pieces.append(document.text[cursor:])
    return Transformed("".join(pieces), tuple(replacements))
