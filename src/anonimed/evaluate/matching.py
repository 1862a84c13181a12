"""What one document contributes to each figure of docs/evaluation.md (the MEDDOCAN definition).

Every function takes one document's gold and predicted annotations as *sets*, so an annotation given twice counts
once.  Labels are compared exactly as given: a label that is not a MEDDOCAN type is simply a type that no gold span
has (subtask 1) and is ignored like every type in subtask 2.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import lru_cache

from anonimed.evaluate.counts import Counts
from anonimed.text.tokenize import tokenize

Item = tuple[str, int, int]  # (type, start, end): a subtask 1 annotation
Offsets = tuple[int, int]  # (start, end): a subtask 2 annotation

MISSED = "missed"
SPURIOUS = "spurious"


def set_counts(gold: AbstractSet, predicted: AbstractSet) -> Counts:
    """Subtask 1 and subtask 2 strict: TP = gold ∩ predicted, FP = predicted − gold, FN = gold − predicted."""
    return Counts(len(gold & predicted), len(predicted - gold), len(gold - predicted))


def offsets_of(items: Iterable[Item]) -> set[Offsets]:
    return {(start, end) for _, start, end in items}


def merged_spans(spans: AbstractSet[Offsets], text: str) -> set[Offsets]:
    """Walk the spans in sorted order and join each to the current merged span when the text between them holds no
    alphanumeric character (an empty gap, as overlapping spans give, joins too).

    Joining sets the merged span's end to the *next span's* end, as the definition and the organisers' scorer say,
    even when that span is nested and ends earlier.
    """
    merged: list[Offsets] = []
    for start, end in sorted(spans):
        if merged and not any(character.isalnum() for character in text[merged[-1][1] : start]):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return set(merged)


def _inside_any(span: Offsets, containers: AbstractSet[Offsets]) -> bool:
    return any(span[0] >= outer[0] and span[1] <= outer[1] for outer in containers)


def merged_counts(gold: AbstractSet[Offsets], predicted: AbstractSet[Offsets], text: str) -> Counts:
    """Subtask 2 merged: hits = (strict ∩) ∪ (merged ∩); FP and FN only for strict spans that lie inside no hit."""
    hits = (gold & predicted) | (merged_spans(gold, text) & merged_spans(predicted, text))
    false_positives = [span for span in predicted - gold if not _inside_any(span, hits)]
    false_negatives = [span for span in gold - predicted if not _inside_any(span, hits)]
    return Counts(len(hits), len(false_positives), len(false_negatives))


def per_type_counts(gold: AbstractSet[Item], predicted: AbstractSet[Item]) -> dict[str, Counts]:
    """Subtask 1 counts split by type (the type of the gold item for TP and FN, of the predicted item for FP)."""
    tp = Counter(label for label, _, _ in gold & predicted)
    fp = Counter(label for label, _, _ in predicted - gold)
    fn = Counter(label for label, _, _ in gold - predicted)
    return {label: Counts(tp[label], fp[label], fn[label]) for label in tp | fp | fn}


def confusion_pairs(gold: AbstractSet[Item], predicted: AbstractSet[Item]) -> Counter[tuple[str, str]]:
    """(gold type, predicted type) for every pair of spans with the same offsets; ``missed`` stands for the predicted
    type of a gold item no prediction shares offsets with, ``spurious`` for the gold type of the reverse.

    Where several types share one pair of offsets, equal types pair first and the rest pair in sorted order, so each
    gold item is counted once: the row of a type sums to its gold count and the diagonal to the subtask 1 TP.
    """
    gold_types: dict[Offsets, set[str]] = {}
    predicted_types: dict[Offsets, set[str]] = {}
    for label, start, end in gold:
        gold_types.setdefault((start, end), set()).add(label)
    for label, start, end in predicted:
        predicted_types.setdefault((start, end), set()).add(label)
    pairs: Counter[tuple[str, str]] = Counter()
    for offsets in gold_types.keys() | predicted_types.keys():
        golds, predictions = gold_types.get(offsets, set()), predicted_types.get(offsets, set())
        for label in golds & predictions:
            pairs[label, label] += 1
        unpaired_gold, unpaired_predicted = sorted(golds - predictions), sorted(predictions - golds)
        for gold_label, predicted_label in zip(unpaired_gold, unpaired_predicted):
            pairs[gold_label, predicted_label] += 1
        for gold_label in unpaired_gold[len(unpaired_predicted) :]:
            pairs[gold_label, MISSED] += 1
        for predicted_label in unpaired_predicted[len(unpaired_gold) :]:
            pairs[SPURIOUS, predicted_label] += 1
    return pairs


def _phi_tokens(token_starts: list[int], token_ends: list[int], spans: AbstractSet[Offsets]) -> set[int]:
    inside = set()
    for start, end in spans:
        index = bisect_left(token_starts, start)
        while index < len(token_starts) and token_starts[index] < end:
            if token_ends[index] <= end:
                inside.add(index)
            index += 1
    return inside


@lru_cache(maxsize=1024)
def _token_bounds(text: str) -> tuple[list[int], list[int]]:
    # Cached: tuning scores the same notes hundreds of times, and tokenizing was most of a score's time.
    tokens = tokenize(text)
    return [token.start for token in tokens], [token.end for token in tokens]


def token_counts(gold: AbstractSet[Offsets], predicted: AbstractSet[Offsets], text: str) -> Counts:
    """Token-level de-identification: a token is PHI on a side when it lies inside any span of that side."""
    starts, ends = _token_bounds(text)
    return set_counts(_phi_tokens(starts, ends, gold), _phi_tokens(starts, ends, predicted))


def character_counts(gold: AbstractSet[Offsets], predicted: AbstractSet[Offsets]) -> Counts:
    """Character-level de-identification, type ignored: recall is the share of gold PHI characters under a prediction."""

    def characters(spans: AbstractSet[Offsets]) -> set[int]:
        return {position for start, end in spans for position in range(start, end)}

    return set_counts(characters(gold), characters(predicted))
