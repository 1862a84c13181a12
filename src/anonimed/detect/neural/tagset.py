"""The BIOES tag set of a label set and the tag moves BIOES allows (the CRF forbids the others)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from anonimed.text.tagging import OUTSIDE


def bioes_tags(labels: Iterable[str]) -> list[str]:
    return [OUTSIDE] + [f"{prefix}-{label}" for label in sorted(set(labels)) for prefix in "BIES"]


def _parts(tag: str) -> tuple[str, str | None]:
    return (OUTSIDE, None) if tag == OUTSIDE else (tag[0], tag[2:])


def allowed_moves(tags: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Boolean masks: ``moves[i, j]``: tag j may follow tag i; ``first[j]``: j may open a sentence; ``last[i]``: i may
    close one."""
    parts = [_parts(tag) for tag in tags]
    closes = [prefix in (OUTSIDE, "E", "S") for prefix, _ in parts]  # after these, a new entity or O may come
    opens = [prefix in (OUTSIDE, "B", "S") for prefix, _ in parts]  # these may come where no entity is open
    moves = np.zeros((len(tags), len(tags)), dtype=bool)
    for i, (_, label_i) in enumerate(parts):
        for j, (prefix_j, label_j) in enumerate(parts):
            continues = prefix_j in ("I", "E") and label_j == label_i and not closes[i]
            moves[i, j] = (closes[i] and opens[j]) or continues
    return moves, np.array(opens), np.array(closes)
