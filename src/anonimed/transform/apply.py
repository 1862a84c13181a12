"""Put the operators' replacements into the text and move every span to where its replacement landed."""

from __future__ import annotations

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
    chosen: list[Span] = []
    for span in sorted(spans, key=lambda s: (-(s.end - s.start), -s.score, s.start)):
        if not any(span.overlaps(kept) for kept in chosen):
            chosen.append(span)
    return sorted(chosen)


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
        new = operator.replace(original, span.label, context)
        output = Span(length, length + len(new), span.label, span.score, span.source) if new else None
        pieces.append(new)
        length += len(new)
        cursor = span.end
        replacements.append(Replacement(span, output, operator.name, original, new))
    pieces.append(document.text[cursor:])
    return Transformed("".join(pieces), tuple(replacements))
