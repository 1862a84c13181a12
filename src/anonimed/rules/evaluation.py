"""How good rules are on annotated notes, rule by rule and type by type, and whether a candidate rule should stay.

Two ways of matching a rule's span with the gold (see ``docs/rules.md``):

- **strict**: same type, same start, same end (the MEDDOCAN subtask 1 criterion);
- **overlap**: same type and at least one character in common.  Precision counts the predicted spans that overlap a
  gold span of their type, recall the gold spans that a predicted span of their type overlaps.

The refinement loop of the rule-based corpus-building method decides on a candidate rule with
:func:`judge_candidate`: keep it if F1 rises on the training sample and on the validation sample; report it for
discarding if validation recall falls, for refining if validation precision falls.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from anonimed.document import Document, Span
from anonimed.evaluate.counts import Counts
from anonimed.evaluate.matching import character_counts
from anonimed.rules.language import Rule
from anonimed.rules.matcher import RuleMatch
from anonimed.rules.ruleset import RuleSet, spans_of

# Wrong matches listed per rule in a report (the counts cover them all).
ERRORS_SHOWN = 50


@dataclass
class Tally:
    """Counts behind precision and recall, strict and overlap."""

    predicted: int = 0
    gold: int = 0
    exact: int = 0
    predicted_overlapping: int = 0
    gold_overlapped: int = 0

    def add(self, other: Tally) -> None:
        self.predicted += other.predicted
        self.gold += other.gold
        self.exact += other.exact
        self.predicted_overlapping += other.predicted_overlapping
        self.gold_overlapped += other.gold_overlapped

    def figures(self) -> dict[str, Any]:
        strict = _prf(self.exact, self.predicted, self.exact, self.gold)
        overlap = _prf(self.predicted_overlapping, self.predicted, self.gold_overlapped, self.gold)
        return {**strict, "predicted": self.predicted, "gold": self.gold, "overlap": overlap}


def _prf(right_predicted: int, predicted: int, found_gold: int, gold: int) -> dict[str, float]:
    precision = right_predicted / predicted if predicted else 0.0
    recall = found_gold / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def tally(gold: Iterable[Span], predicted: Iterable[Span]) -> Tally:
    """One note's counts (type must agree in both criteria)."""
    gold_set = {span.key for span in gold}
    predicted_set = {span.key for span in predicted}
    return Tally(
        predicted=len(predicted_set),
        gold=len(gold_set),
        exact=len(gold_set & predicted_set),
        predicted_overlapping=sum(any(_overlap(p, g) for g in gold_set) for p in predicted_set),
        gold_overlapped=sum(any(_overlap(g, p) for p in predicted_set) for g in gold_set),
    )


def _overlap(a: tuple[str, int, int], b: tuple[str, int, int]) -> bool:
    return a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


@dataclass
class RuleFigures:
    """One rule alone: its matches against the gold of its type, and the ones it gets wrong."""

    rule: Rule
    tally: Tally = field(default_factory=Tally)
    errors: list[dict[str, Any]] = field(default_factory=list)
    error_count: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.rule.label,
            "file": self.rule.origin,
            **self.tally.figures(),
            "wrong": self.error_count,
            "wrong_matches": self.errors,
        }


@dataclass
class RulesReport:
    """Figures of a rule set on annotated notes: ``all``, per type and per rule (``to_json``)."""

    overall: Tally
    types: dict[str, Tally]
    rules: dict[str, RuleFigures]
    documents: int
    characters: Counts = field(default_factory=Counts)

    @property
    def f1(self) -> float:
        return float(self.overall.figures()["f1"])

    def to_json(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "all": self.overall.figures(),
            "characters": self.characters.to_dict(),
            "types": {label: counts.figures() for label, counts in sorted(self.types.items())},
            "rules": {name: figures.to_json() for name, figures in self.rules.items()},
        }

    def table(self) -> str:
        """Per type and per rule, as a plain-text table (strict figures, then overlap F1)."""
        lines = [f"{'':40} {'P':>6} {'R':>6} {'F1':>6} {'F1~':>6} {'found':>6} {'gold':>6}"]

        def row(name: str, counts: Tally) -> str:
            f = counts.figures()
            return (
                f"{name[:40]:40} {f['precision']:6.3f} {f['recall']:6.3f} {f['f1']:6.3f} {f['overlap']['f1']:6.3f} "
                f"{counts.predicted:6d} {counts.gold:6d}"
            )

        lines.append(row("all", self.overall))
        chars = self.characters
        lines.append(f"{'characters (type ignored)':40} {chars.precision:6.3f} {chars.recall:6.3f} {chars.f1:6.3f}")
        lines += [row(label, counts) for label, counts in sorted(self.types.items())]
        lines.append("")
        lines.append("rules (each alone; recall against the gold of its type)")
        lines += [row(name, figures.tally) for name, figures in self.rules.items()]
        return "\n".join(lines)


def evaluate_rules(rules: RuleSet, documents: Sequence[Document]) -> RulesReport:
    """The rule set's spans against each note's gold spans, and every rule's own matches."""
    overall = Tally()
    types: dict[str, Tally] = defaultdict(Tally)
    per_rule = {rule.name: RuleFigures(rule) for rule in rules}
    characters = Counts()
    for document in documents:
        matches = rules.matches(document)
        predicted = spans_of(matches)
        overall.add(tally(document.spans, predicted))
        characters += character_counts(
            {(s.start, s.end) for s in document.spans}, {(s.start, s.end) for s in predicted}
        )
        for label in {s.label for s in document.spans} | {s.label for s in predicted}:
            types[label].add(
                tally([s for s in document.spans if s.label == label], [s for s in predicted if s.label == label])
            )
        _per_rule(document, matches, per_rule)
    return RulesReport(overall, dict(types), per_rule, len(documents), characters)


def _per_rule(document: Document, matches: Sequence[RuleMatch], per_rule: dict[str, RuleFigures]) -> None:
    by_rule: dict[str, list[Span]] = defaultdict(list)
    for match in matches:
        by_rule[match.rule.name].append(Span(match.start, match.end, match.rule.label, match.rule.score, "rules"))
    for name, figures in per_rule.items():
        label = figures.rule.label
        gold = [s for s in document.spans if s.label == label]
        spans = by_rule.get(name, [])
        figures.tally.add(tally(gold, spans))
        gold_keys = {s.key for s in document.spans}
        for span in spans:
            if span.key in gold_keys:
                continue
            figures.error_count += 1
            if len(figures.errors) < ERRORS_SHOWN:
                figures.errors.append(_wrong(document, span))


def _wrong(document: Document, span: Span) -> dict[str, Any]:
    """A wrong match and why: no PHI there, other bounds, or another type."""
    overlapping = [g for g in document.spans if g.overlaps(span)]
    if not overlapping:
        why = "not PHI"
    elif any(g.start == span.start and g.end == span.end for g in overlapping):
        why = "type: gold says " + next(g.label for g in overlapping if (g.start, g.end) == (span.start, span.end))
    else:
        gold = overlapping[0]
        why = f"bounds: gold is {gold.label} {document.text[gold.start : gold.end]!r}"
    return {"document": document.id, "start": span.start, "end": span.end, "text": document.span_text(span), "why": why}


@dataclass(frozen=True)
class Judgement:
    """The decision on a candidate rule and the figures behind it."""

    decision: str  # keep, discard or refine
    reason: str
    before: dict[str, dict[str, float]]
    after: dict[str, dict[str, float]]

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.decision, "reason": self.reason, "before": self.before, "after": self.after}


def judge_candidate(
    base: RuleSet, candidates: Sequence[Rule], train: Sequence[Document], validation: Sequence[Document]
) -> Judgement:
    """The seed method's acceptance test for ``candidates`` added to ``base`` (strict figures over all types)."""
    extended = base.with_rules(candidates)

    def figures(rules: RuleSet) -> dict[str, dict[str, float]]:
        return {
            sample: {k: v for k, v in evaluate_rules(rules, notes).overall.figures().items() if isinstance(v, float)}
            for sample, notes in (("train", train), ("validation", validation))
        }

    before, after = figures(base), figures(extended)
    if after["train"]["f1"] > before["train"]["f1"] and after["validation"]["f1"] > before["validation"]["f1"]:
        decision, reason = "keep", "F1 rises on the training and the validation sample"
    elif after["validation"]["recall"] < before["validation"]["recall"]:
        decision, reason = "discard", "validation recall falls"
    elif after["validation"]["precision"] < before["validation"]["precision"]:
        decision, reason = "refine", "validation precision falls: make the rule stricter"
    else:
        decision, reason = "discard", "F1 does not rise on both samples"
    return Judgement(decision, reason, before, after)
