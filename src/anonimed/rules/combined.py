"""A model with rules added: how a site's rules (or the shipped ones) join a model's detector."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from anonimed.detect.base import Detector
from anonimed.detect.boundaries import CENTRE_TYPES
from anonimed.document import Document, Span
from anonimed.rules.language import fold
from anonimed.rules.ruleset import load_rules

Prefer = Literal["model", "rules"]
# A capitalised word of a name, of two letters or more, or a Roman numeral (Rondilla I, Felipe II).
_NAME_WORD = re.compile(r"[^\W\d_a-zà-ÿ][^\W\d_]+|[IVX]+")


class WithRules:
    """The spans of ``detector`` and of ``rules``, never overlapping.

    ``prefer="model"`` (the default): the rules add spans where the model found nothing, and a rule's span that holds
    every model span it overlaps, twice as long as they are together, replaces them (the model found a piece of a
    hospital's name, ``H``, the rule all of it), as does a centre's that starts where the model's centre of the same
    type starts and goes on (``Hospital de Tortosa`` + ``Verge de la Cinta``), or a centre whose town ends it and was
    the model's only span there (``ayuntamiento de`` + ``los llanos de aridane``); otherwise the model's spans stay.
    The rules add recall and never shrink what the model covers.  ``prefer="rules"``: where a rule's span overlaps the
    model's, the rule's wins (a site's rule that fixes a boundary or a type the model gets wrong).
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
            if all(span.contains(m) for m in overlapping) and (
                covered * 2 < len(span)
                or _longer_centre(document.text, span, overlapping)
                or _town_of_a_centre(span, overlapping)
            ):
                kept_model = [m for m in kept_model if m not in overlapping]
                added.append(span)
        return sorted([*kept_model, *added])


def _longer_centre(text: str, rule_span: Span, model_spans: Sequence[Span]) -> bool:
    """Whether the rule's span is a centre that the model's one span, of the same type and start, stopped inside of,
    and goes on with capitalised words of the name (``Hospital de Tortosa`` + ``Verge de la Cinta``): not with a town
    after ``de``, which the guidelines tag apart, nor with an initial, a number, an hour or a common word in capitals
    that the rule ran into (``Universidad de Alcalá`` + ``E``-mail, ``Hospital Morales Meseguer`` + ``2``ª planta)."""
    if not (
        rule_span.label in CENTRE_TYPES
        and len(model_spans) == 1
        and model_spans[0].label == rule_span.label
        and model_spans[0].start == rule_span.start
    ):
        return False
    from anonimed.rules.gazetteers import PARTICLES, CommonWords

    words = text[model_spans[0].end : rule_span.end].split()
    names = [word for word in words if word not in PARTICLES]
    return (
        bool(words)
        and words[0] in names
        and words[-1] in names
        and all(_NAME_WORD.fullmatch(word) and not (word.isupper() and fold(word) in CommonWords()) for word in names)
    )


def _town_of_a_centre(rule_span: Span, model_spans: Sequence[Span]) -> bool:
    """Whether the model took for a town the end of a centre's name that the rule found whole (``ayuntamiento de`` +
    ``los llanos de aridane``, ``centre de salut`` + ``la massana``): a name written in lower case, whose head the
    model did not read as one."""
    return (
        rule_span.label in CENTRE_TYPES
        and len(model_spans) == 1
        and model_spans[0].label == "TERRITORIO"
        and model_spans[0].end == rule_span.end
        and model_spans[0].start > rule_span.start
    )


def _outside(candidates: Sequence[Span], taken: Sequence[Span]) -> list[Span]:
    """The candidates that overlap none of ``taken`` (both in any order)."""
    return [span for span in candidates if not any(other.overlaps(span) for other in taken)]


def with_rules(
    detector: Detector, sources: str | Path | Sequence[str | Path] = "default", prefer: Prefer = "model"
) -> Detector:
    """``detector`` with the rules of ``sources`` (``"default"``: the shipped set; or rule files and folders)."""
    return WithRules(detector, load_rules(sources), prefer)
