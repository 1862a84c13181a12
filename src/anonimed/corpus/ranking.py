"""The seed score of a note, the elbow of the sorted scores and the selection it gives.

``score(d) = sum_i N_i(d) * (1 - F1_i) * (1 - p_i)``: ``N_i(d)`` is the number of mentions of type ``i`` the rules
find in note ``d``, ``F1_i`` the rules' strict F1 for type ``i`` on the labelled sample (0 where it has none) and
``p_i`` type ``i``'s share of all rule mentions in the pool.  A note scores high when the rules find in it many
mentions of types they handle badly and that are rare in the pool: the notes an annotator's labels teach most.

The threshold is the elbow of the curve of the positive scores sorted in decreasing order: both axes scaled to
[0, 1] (rank ``k / (n - 1)``, score ``(s - min) / (max - min)``), the elbow is the point farthest below the chord
from the first point to the last (the "maximum distance to the chord" form of Kneedle, Satopää et al. 2011); the
first such point wins a tie of distances, and a curve with no point below its chord (flat, or bending the other
way) has its elbow at the first point.  Every note scoring at least the elbow's score is selected, so tied notes are
all in or all out whatever their order.  Notes scoring 0 (no mention, or only mentions of types the rules get
perfectly) are never selected, and they are left out of the curve: a pool of sparse PHI would otherwise put the
elbow at the edge of its zeros whatever the positive scores look like.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from anonimed.document import Span


def mention_counts(spans: Sequence[Span]) -> Counter[str]:
    """``N_i(d)``: how many mentions of each type a detector found in one note."""
    return Counter(span.label for span in spans)


def type_shares(mentions: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    """``p_i``: each type's share of all the mentions found in the pool (``mentions`` maps note id to counts)."""
    totals: Counter[str] = Counter()
    for counts in mentions.values():
        totals.update(counts)
    everything = sum(totals.values())
    return {label: count / everything for label, count in totals.items()} if everything else {}


def seed_scores(mentions: Mapping[str, Mapping[str, int]], f1: Mapping[str, float]) -> dict[str, float]:
    """``score(d)`` of every note of the pool; ``f1`` holds the rules' strict F1 per type (a missing type counts 0)."""
    shares = type_shares(mentions)
    return {
        document_id: sum(count * (1.0 - f1.get(label, 0.0)) * (1.0 - shares[label]) for label, count in counts.items())
        for document_id, counts in mentions.items()
    }


def elbow_index(scores: Sequence[float]) -> int:
    """The index of the elbow of ``scores`` (sorted in decreasing order, not empty); see the module's docstring."""
    if not scores:
        raise ValueError("elbow_index needs at least one score")
    if any(later > earlier for earlier, later in pairwise(scores)):
        raise ValueError("elbow_index needs scores sorted in decreasing order")
    last = len(scores) - 1
    spread = scores[0] - scores[-1]
    if last == 0 or spread == 0:
        return 0
    # Distance below the chord from (0, 1) to (1, 0), up to the constant factor 1/sqrt(2).
    below = [1.0 - index / last - (score - scores[-1]) / spread for index, score in enumerate(scores)]
    deepest = max(below)
    return below.index(deepest) if deepest > 0 else 0


@dataclass(frozen=True)
class RankedDocument:
    id: str
    score: float
    selected: bool


@dataclass(frozen=True)
class Ranking:
    """Notes by decreasing score (ties by id), the elbow's score (``None`` when no note scores above 0)."""

    threshold: float | None
    documents: list[RankedDocument]
    by: str = "seed"

    @property
    def selected(self) -> list[str]:
        return [document.id for document in self.documents if document.selected]

    def to_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "threshold": self.threshold,
            "selected": len(self.selected),
            "documents": [{"id": d.id, "score": d.score, "selected": d.selected} for d in self.documents],
        }


def rank(scores: Mapping[str, float], by: str = "seed") -> Ranking:
    """Sort the notes by decreasing score and select those at or above the elbow of the positive scores."""
    if any(score < 0 for score in scores.values()):
        raise ValueError("ranking scores must not be negative")
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    positive = [score for _, score in ordered if score > 0]
    threshold = positive[elbow_index(positive)] if positive else None
    documents = [
        RankedDocument(document_id, score, threshold is not None and score > 0 and score >= threshold)
        for document_id, score in ordered
    ]
    return Ranking(threshold, documents, by)


def plot_ranking(ranking: Ranking, path: str | Path) -> None:
    """A PNG of the sorted scores with the elbow's threshold (matplotlib, written atomically)."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display is needed or wanted
    import matplotlib.pyplot as plt

    from anonimed.formats.textio import write_bytes_atomic

    figure, axes = plt.subplots(figsize=(7, 4))
    scores = [document.score for document in ranking.documents]
    axes.plot(range(1, len(scores) + 1), scores, color="tab:blue", linewidth=1.5, label=f"{ranking.by} score")
    if ranking.threshold is not None:
        chosen = len(ranking.selected)
        axes.axhline(ranking.threshold, color="tab:red", linestyle="--", linewidth=1, label="threshold (elbow)")
        axes.axvline(chosen, color="tab:red", linestyle=":", linewidth=1)
        axes.annotate(
            f"{chosen} selected, score ≥ {ranking.threshold:.3g}",
            (chosen, ranking.threshold),
            textcoords="offset points",
            xytext=(8, 8),
            color="tab:red",
        )
    axes.set_xlabel("notes, by decreasing score")
    axes.set_ylabel("score")
    axes.set_title(f"{len(scores)} notes ranked by {ranking.by}")
    axes.legend(loc="upper right")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=120, bbox_inches="tight")
    plt.close(figure)
    write_bytes_atomic(Path(path), buffer.getvalue())
