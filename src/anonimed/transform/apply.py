"""Put the operators' replacements into the text and move every span to where its replacement landed."""

from __future__ import annotations

import bisect
import unicodedata
from dataclasses import dataclass

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


def non_overlapping(spans: list[Span]) -> list[Span]:
    """The spans to replace, in reading order: of overlapping spans the longest (then the most confident) wins."""
    chosen: list[Span] = []  # kept in reading order and never overlapping, so only the neighbours need a check
    starts: list[int] = []  # (a note of 20 MB has tens of thousands of spans: no pairwise comparison)
    for span in sorted(spans, key=lambda s: (-(s.end - s.start), -s.score, s.start)):
        index = bisect.bisect_left(starts, span.start)
        clear_before = index == 0 or chosen[index - 1].end <= span.start
        clear_after = index == len(chosen) or span.end <= chosen[index].start
        if clear_before and clear_after:
            chosen.insert(index, span)
            starts.insert(index, span.start)
    return chosen


def apply_plan(document: Document, plan: OperatorPlan, context: SurrogateContext) -> Transformed:
    """The document's text with each of its spans replaced by its operator (spans in reading order, so that a
    surrogate can build on the ones before it: an e-mail address on the name of the doctor named just before)."""
    pieces: list[str] = []
    replacements: list[Replacement] = []
    cursor = length = 0
    for span in non_overlapping(document.spans):
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
