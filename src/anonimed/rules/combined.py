"""A model with rules added: how a site's rules (or the shipped ones) join a model's detector."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.rules.ruleset import load_rules

Prefer = Literal["model", "rules"]


class WithRules:
    """The spans of ``detector`` and of ``rules``, never overlapping.

    ``prefer="model"`` (the default): the rules add spans where the model found nothing, and a rule's span that holds
    every model span it overlaps, twice as long as they are together, replaces them (the model found a piece of a
    hospital's name, ``H``, the rule all of it); otherwise the model's spans stay.  The rules add recall and never shrink what
    the model covers.  ``prefer="rules"``: where a rule's span overlaps the model's, the rule's wins (a site's rule
    that fixes a boundary or a type the model gets wrong).
    """

    def __init__(self, detector: Detector, rules: Detector, prefer: Prefer = "model") -> None:
        if prefer not in ("model", "rules"):
            raise ValueError(f"prefer must be 'model' or 'rules', got {prefer!r}")
        self.detector = detector
        self.rules = rules
        self.prefer = prefer
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        model, ruled = self.detector.detect(document), self.rules.detect(document)
        if self.prefer == "rules":
            return sorted([*ruled, *_outside(model, ruled)])
        kept_model = list(model)
        added = []
        for span in ruled:
            overlapping = [m for m in kept_model if m.overlaps(span)]
            covered = sum(len(m) for m in overlapping)
            if all(span.contains(m) for m in overlapping) and covered * 2 < len(span):
                kept_model = [m for m in kept_model if m not in overlapping]
                added.append(span)
        return sorted([*kept_model, *added])


def _outside(candidates: Sequence[Span], taken: Sequence[Span]) -> list[Span]:
    """The candidates that overlap none of ``taken`` (both in any order)."""
    return [span for span in candidates if not any(other.overlaps(span) for other in taken)]


def with_rules(
    detector: Detector, sources: str | Path | Sequence[str | Path] = "default", prefer: Prefer = "model"
) -> Detector:
    """``detector`` with the rules of ``sources`` (``"default"``: the shipped set; or rule files and folders)."""
    return WithRules(detector, load_rules(sources), prefer)
