"""A model with rules added: how a site's rules (or the shipped ones) join a model's detector."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Literal

from anonimed.detect.base import Detector
from anonimed.detect.boundaries import CENTRE_TYPES
from anonimed.document import Document, Span
from anonimed.rules.language import fold
from anonimed.rules.ruleset import load_rules

Prefer = Literal["model", "rules"]
# Names whose head or type says what they are (a centre's, a street's).
_NAMES_WITH_A_HEAD = CENTRE_TYPES | {"CALLE"}
# A care home's head, which the guidelines leave out of its name (folded).
_NOT_A_NAME_HEAD = frozenset({"residencia", "resid", "res"})
# A capitalised word of a name, of two letters or more, or a Roman numeral (Rondilla I, Felipe II).
_NAME_WORD = re.compile(r"[^\W\d_a-zà-ÿ][^\W\d_]+|[IVX]+")


class WithRules:
    """The spans of ``detector`` and of ``rules``, never overlapping.

    ``prefer="model"`` (the default): the rules add spans where the model found nothing, and a rule's span that holds
    every model span it overlaps, twice as long as they are together, replaces them (the model found a piece of a
    hospital's name, ``H``, the rule all of it), as does a centre's that starts where the model's centre of the same
    type starts and goes on (``Hospital de Tortosa`` + ``Verge de la Cinta``), an institution's that ends where the
    model's ends and starts with its head (``Servicio de`` + ``Salud de Castilla-La Mancha``), or a centre or a street
    whose name's end was the model's only span there, a town (``ayuntamiento de`` + ``los llanos de aridane``, ``c/
    de`` + ``Bac de Roda``); otherwise the model's spans stay.
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
                or _town_ending_a_longer_name(span, overlapping)
            ):
                kept_model = [m for m in kept_model if m not in overlapping]
                added.append(span)
        return sorted([*kept_model, *added])


def _longer_centre(text: str, rule_span: Span, model_spans: Sequence[Span]) -> bool:
    """Whether the rule's span is a centre that the model's one span, of the same type, lies inside of, sharing its
    start or its end, and the rule's goes on with capitalised words of the name (``Hospital de Tortosa`` + ``Verge de
    la Cinta``) or, for an institution, starts with them (``Servicio de`` + ``Salud de Castilla-La Mancha``; not a
    care home's ``Residencia``, which the guidelines leave out): not with a town after ``de``,
    which the guidelines tag apart, nor with an initial, a number, an hour or a common word in capitals that the rule
    ran into (``Universidad de Alcalá`` + ``E``-mail, ``Hospital Morales Meseguer`` + ``2``ª planta).  Pieces of the
    model's parted by a full stop or a space alone count as one span (``H.U`` + ``Los Arcos del Mar`` of ``H.U. Los
    Arcos del Mar Menor``)."""
    pieces = sorted(model_spans)
    if not (
        rule_span.label in CENTRE_TYPES
        and pieces
        and all(piece.label == rule_span.label for piece in pieces)
        and all(not text[a.end : b.start].strip(" .") for a, b in pairwise(pieces))
    ):
        return False
    from anonimed.rules.gazetteers import PARTICLES, CommonWords

    model = Span(pieces[0].start, pieces[-1].end, rule_span.label)
    if model.start == rule_span.start:
        words = text[model.end : rule_span.end].split()
    elif model.end == rule_span.end and rule_span.label == "INSTITUCION":
        words = text[rule_span.start : model.start].split()
        if words and fold(words[0]) in _NOT_A_NAME_HEAD:  # the guidelines leave a care home's head out
            return False
        while words and words[-1] in PARTICLES:  # the head's particle before the model's name (``Servicio de``)
            words.pop()
    else:
        return False
    names = [word for word in words if word not in PARTICLES]
    return (
        bool(words)
        and words[0] in names
        and words[-1] in names
        and all(_NAME_WORD.fullmatch(word) and not (word.isupper() and fold(word) in CommonWords()) for word in names)
    )


def _town_ending_a_longer_name(rule_span: Span, model_spans: Sequence[Span]) -> bool:
    """Whether the model took for a town the end of a centre's or a street's name that the rule found whole, with the
    head or the type that says what it is (``ayuntamiento de`` + ``los llanos de aridane``, ``centre de salut`` + ``la
    massana``, ``c/ de`` + ``Bac de Roda``)."""
    return (
        rule_span.label in _NAMES_WITH_A_HEAD
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
