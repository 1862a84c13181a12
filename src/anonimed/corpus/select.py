"""Rank a pool of unlabelled notes for annotation: by the seed score of the rules, or by a model's uncertainty."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from anonimed.corpus.ranking import Ranking, mention_counts, rank, seed_scores
from anonimed.corpus.uncertainty import uncertainty_scores
from anonimed.detect.base import Detector
from anonimed.document import Document

if TYPE_CHECKING:
    from anonimed.rules import RuleSet


def rules_f1(rules: RuleSet, labelled: Sequence[Document]) -> dict[str, float]:
    """``F1_i``: the strict F1 per type that ``rules eval`` reports on the labelled notes."""
    from anonimed.rules import evaluate_rules

    types = evaluate_rules(rules, labelled).to_json()["types"]
    return {label: float(figures["f1"]) for label, figures in types.items()}


def rank_by_rules(rules: RuleSet, labelled: Sequence[Document], pool: Sequence[Document]) -> Ranking:
    """The pool by decreasing seed score (see :mod:`anonimed.corpus.ranking`), the elbow's notes selected."""
    mentions = {document.id: mention_counts(rules.detect(document)) for document in pool}
    return rank(seed_scores(mentions, rules_f1(rules, labelled)), by="seed")


def rank_by_uncertainty(detector: Detector, pool: Sequence[Document]) -> Ranking:
    """The pool by decreasing model uncertainty (see :mod:`anonimed.corpus.uncertainty`), the elbow's notes selected."""
    return rank(uncertainty_scores(detector, pool), by="uncertainty")
