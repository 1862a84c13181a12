"""The resolver's rules: thresholds, duplicates, overlaps by priority/score/length, precision and recall modes."""

from __future__ import annotations

import itertools

import pytest

from anonimed.detect.resolver import ResolvedDetector, Resolver
from anonimed.document import Document, Span


def span(start: int, end: int, label: str = "FECHAS", score: float = 0.9, source: str = "crf") -> Span:
    return Span(start, end, label, score, source)


def test_spans_below_the_threshold_are_dropped_per_source() -> None:
    resolver = Resolver(threshold=0.5, thresholds={"patterns": 0.95})
    kept = resolver.resolve(
        [span(0, 4, score=0.4), span(10, 14, score=0.6), span(20, 24, score=0.9, source="patterns")]
    )
    assert [(s.start, s.end) for s in kept] == [(10, 14)]


def test_higher_priority_wins_an_overlap_even_with_a_lower_score() -> None:
    resolver = Resolver(priorities={"crf": 1})
    kept = resolver.resolve([span(0, 10, "CALLE", 0.6), span(5, 12, "TERRITORIO", 0.99, source="patterns")])
    assert [s.key for s in kept] == [("CALLE", 0, 10)]


def test_score_then_length_break_ties_between_equal_priorities() -> None:
    resolver = Resolver()
    assert Resolver().resolve([span(0, 5, score=0.7), span(3, 9, score=0.8)])[0].key == ("FECHAS", 3, 9)
    assert resolver.resolve([span(0, 5), span(0, 9, "EDAD_SUJETO_ASISTENCIA")])[0].key == (
        "EDAD_SUJETO_ASISTENCIA",
        0,
        9,
    )


def test_precision_mode_never_returns_overlapping_spans_and_keeps_separate_ones() -> None:
    spans = [span(0, 5), span(4, 8, score=0.5), span(7, 12, score=0.95), span(20, 25, source="patterns")]
    kept = Resolver().resolve(spans)
    assert [(s.start, s.end) for s in kept] == [(0, 5), (7, 12), (20, 25)]
    assert all(not a.overlaps(b) for a, b in itertools.pairwise(kept))


def test_recall_mode_keeps_the_union_of_overlapping_extents_with_the_best_label() -> None:
    spans = [span(0, 5, "CALLE", 0.6), span(4, 8, "TERRITORIO", 0.9), span(7, 12, "CALLE", 0.7), span(20, 25)]
    kept = Resolver(mode="recall").resolve(spans)
    assert [s.key for s in kept] == [("TERRITORIO", 0, 12), ("FECHAS", 20, 25)]
    assert kept[0].score == 0.9


def test_duplicates_collapse_to_one_span() -> None:
    kept = Resolver().resolve([span(0, 5, score=0.5, source="patterns"), span(0, 5, score=0.9)])
    assert len(kept) == 1 and kept[0].source == "crf"


def test_unknown_mode_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown resolver mode 'greedy'"):
        Resolver(mode="greedy")  # type: ignore[arg-type]


class _Fixed:
    def __init__(self, name: str, spans: list[Span]) -> None:
        self.name, self.spans = name, spans

    def detect(self, document: Document) -> list[Span]:
        return self.spans


def test_resolved_detector_merges_its_detectors() -> None:
    document = Document("n1", "Nombre: Ernesto. Fecha: 03/03/1946.")
    crf = _Fixed("crf", [span(8, 15, "NOMBRE_SUJETO_ASISTENCIA", source="crf")])
    patterns = _Fixed("patterns", [span(24, 34, source="patterns"), span(8, 15, "PROFESION", 0.99, "patterns")])
    merged = ResolvedDetector([crf, patterns], Resolver(priorities={"crf": 1})).detect(document)
    assert [s.key for s in merged] == [("NOMBRE_SUJETO_ASISTENCIA", 8, 15), ("FECHAS", 24, 34)]
