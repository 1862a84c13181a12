"""The result of an evaluation: every figure of the MEDDOCAN definition, as a text table, a dict (JSON) and plots."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from anonimed.evaluate.counts import Counts
from anonimed.evaluate.matching import MISSED, SPURIOUS
from anonimed.schema import LABELS


@dataclass(frozen=True)
class EvaluationReport:
    documents: int
    sentences: int
    """Sentences of all documents: official sentence files where given, anonimed's splitter for the rest."""
    documents_with_split_sentences: int
    """How many documents had no official sentence count, so that their sentences were counted by our splitter."""
    subtask1: Counts
    subtask2_strict: Counts
    subtask2_merged: Counts
    tokens: Counts
    characters: Counts
    """PHI characters, type ignored: recall is the share of gold PHI characters that predicted spans cover."""
    per_type: dict[str, Counts]
    """Subtask 1 counts of every MEDDOCAN type (zero for absent ones), then of any other label met, by name."""
    confusion: Counter[tuple[str, str]]
    """(gold type or ``spurious``, predicted type or ``missed``) -> number of spans (see ``matching.confusion_pairs``)."""
    notes: tuple[str, ...] = field(default=())

    @property
    def leak(self) -> float:
        """Subtask 1 false negatives per sentence (0.0 when there is no sentence)."""
        return self.subtask1.fn / self.sentences if self.sentences else 0.0

    @property
    def labels(self) -> list[str]:
        """Types that occur on either side, MEDDOCAN types first in scheme order: the rows of plots and matrices."""
        return [label for label, counts in self.per_type.items() if counts.tp + counts.fp + counts.fn]

    def to_dict(self) -> dict:
        confusion: dict[str, dict[str, int]] = {}
        for (gold, predicted), number in sorted(self.confusion.items()):
            confusion.setdefault(gold, {})[predicted] = number
        return {
            "documents": self.documents,
            "sentences": self.sentences,
            "documents_with_split_sentences": self.documents_with_split_sentences,
            "subtask1": {**self.subtask1.to_dict(), "leak": self.leak},
            "subtask2_strict": self.subtask2_strict.to_dict(),
            "subtask2_merged": self.subtask2_merged.to_dict(),
            "tokens": self.tokens.to_dict(),
            "characters": self.characters.to_dict(),
            "per_type": {label: {"gold": c.tp + c.fn, **c.to_dict()} for label, c in self.per_type.items()},
            "confusion": confusion,
            "notes": list(self.notes),
        }

    def to_text(self) -> str:
        figures = "{:>7}{:>7}{:>7}{:>11}{:>9}{:>9}"
        row = "{:<30}" + figures
        lines = [
            f"MEDDOCAN evaluation: {self.documents} documents, {self.sentences} sentences",
            *(f"note: {note}" for note in self.notes),
            "",
            row.format("", "TP", "FP", "FN", "Precision", "Recall", "F1"),
        ]
        for name, counts in (
            ("Subtask 1 (NER)", self.subtask1),
            ("Subtask 2 strict (spans)", self.subtask2_strict),
            ("Subtask 2 merged (spans)", self.subtask2_merged),
            ("Tokens (de-identification)", self.tokens),
            ("PHI characters", self.characters),
        ):
            lines.append(_row(row, name, counts))
        lines += [f"Leak (subtask 1 FN / sentences): {self.leak:.4f}", "", "Subtask 1 per type:"]
        type_row = "{:<34}{:>6}" + figures
        lines.append(type_row.format("type", "gold", "TP", "FP", "FN", "Precision", "Recall", "F1"))
        for label, counts in self.per_type.items():
            lines.append(_row(type_row, label, counts, counts.tp + counts.fn))
        confusions = [
            (number, gold, predicted)
            for (gold, predicted), number in self.confusion.items()
            if gold != predicted and MISSED not in (gold, predicted) and SPURIOUS not in (gold, predicted)
        ]
        lines += ["", "Type confusions (same offsets, gold -> predicted):"]
        lines += [f"  {gold} -> {predicted}: {number}" for number, gold, predicted in sorted(confusions, reverse=True)]
        if not confusions:
            lines.append("  none")
        return "\n".join(lines) + "\n"


def _row(template: str, name: str, counts: Counts, *leading: int) -> str:
    figures = (f"{counts.precision:.4f}", f"{counts.recall:.4f}", f"{counts.f1:.4f}")
    return template.format(name, *leading, counts.tp, counts.fp, counts.fn, *figures)


def ordered_types(labels: set[str]) -> list[str]:
    """The 29 MEDDOCAN types in scheme order, then any other label in ``labels`` by name."""
    return [*LABELS, *sorted(labels - set(LABELS))]
