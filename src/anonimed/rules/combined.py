"""A model with rules added: how a site's rules (or the shipped ones) join a model's detector."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.rules.ruleset import RuleSet, load_rules

Prefer = Literal["model", "rules"]


class WithRules:
    """The spans of ``detector`` and of ``rules``, never overlapping.

    ``prefer="model"`` (the default): the rules only add spans where the model found nothing, so they add recall and
    never undo what the model found.  ``prefer="rules"``: where a rule's span overlaps the model's, the rule's wins (a
    site's rule that fixes a boundary or a type the model gets wrong).
    """

    def __init__(self, detector: Detector, rules: RuleSet, prefer: Prefer = "model") -> None:
        if prefer not in ("model", "rules"):
            raise ValueError(f"prefer must be 'model' or 'rules', got {prefer!r}")
        self.detector = detector
        self.rules = rules
        self.prefer = prefer
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        model, ruled = self.detector.detect(document), self.rules.detect(document)
        first, second = (model, ruled) if self.prefer == "model" else (ruled, model)
        return sorted([*first, *_outside(second, first)])


def _outside(candidates: Sequence[Span], taken: Sequence[Span]) -> list[Span]:
    """The candidates that overlap none of ``taken`` (both in any order)."""
    return [span for span in candidates if not any(other.overlaps(span) for other in taken)]


def with_rules(
    detector: Detector, sources: str | Path | Sequence[str | Path] = "default", prefer: Prefer = "model"
) -> Detector:
    """``detector`` with the rules of ``sources`` (``"default"``: the shipped set; or rule files and folders)."""
    return WithRules(detector, load_rules(sources), prefer)
