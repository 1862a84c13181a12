"""Merge the spans of several detectors into one consistent set.

Three rules, in order: spans scoring below their detector's threshold are dropped; exact duplicates collapse to the
best one; overlapping spans are resolved by rank (detector priority, then score, then length; earlier start breaks
ties).  ``mode`` sets the trade-off for overlaps: ``"precision"`` keeps only the best-ranked span of each overlap, as
found (greedy, never two overlapping spans); ``"recall"`` keeps the union of the overlapping extents, labelled as the
best-ranked span, so that no character any detector flagged goes unmasked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from anonimed.detect.base import Detector
from anonimed.document import Document, Span

Mode = Literal["precision", "recall"]
MODES: tuple[Mode, ...] = ("precision", "recall")


@dataclass(frozen=True)
class Resolver:
    """``priorities`` and ``thresholds`` are keyed by a span's ``source`` (missing sources: priority 0, ``threshold``)."""

    mode: Mode = "precision"
    threshold: float = 0.0
    thresholds: Mapping[str, float] = field(default_factory=dict)
    priorities: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown resolver mode {self.mode!r}: use one of {', '.join(MODES)}")

    def resolve(self, spans: Iterable[Span]) -> list[Span]:
        """The merged spans, sorted, no two of them overlapping."""
        kept = [s for s in spans if s.score >= self.thresholds.get(s.source, self.threshold)]
        ranked = sorted(kept, key=self._rank)
        if self.mode == "recall":
            return self._unions(ranked)
        chosen: list[Span] = []
        for span in ranked:
            if not any(span.overlaps(other) for other in chosen):
                chosen.append(span)
        return sorted(chosen)

    def _rank(self, span: Span) -> tuple[int, float, int, int]:
        return (-self.priorities.get(span.source, 0), -span.score, -(span.end - span.start), span.start)

    @staticmethod
    def _unions(ranked: Sequence[Span]) -> list[Span]:
        # Group spans into clusters of transitively overlapping extents; the best-ranked member names the cluster.
        order = sorted(range(len(ranked)), key=lambda i: ranked[i].start)
        clusters: list[list[int]] = []
        cluster_end = -1
        for index in order:
            if clusters and ranked[index].start < cluster_end:
                clusters[-1].append(index)
                cluster_end = max(cluster_end, ranked[index].end)
            else:
                clusters.append([index])
                cluster_end = ranked[index].end
        merged = []
        for members in clusters:
            best = ranked[min(members)]
            start = min(ranked[i].start for i in members)
            end = max(ranked[i].end for i in members)
            merged.append(replace(best, start=start, end=end, score=max(ranked[i].score for i in members)))
        return merged


class ResolvedDetector:
    """Several detectors behind one :class:`Resolver`: itself a detector."""

    def __init__(self, detectors: Sequence[Detector], resolver: Resolver = Resolver(), name: str = "resolved") -> None:
        if not detectors:
            raise ValueError("ResolvedDetector needs at least one detector")
        self.detectors = list(detectors)
        self.resolver = resolver
        self.name = name

    def detect(self, document: Document) -> list[Span]:
        return self.resolver.resolve(span for detector in self.detectors for span in detector.detect(document))
