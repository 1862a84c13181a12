"""Invented, annotated training notes in the five styles of ``benchmarks/styles`` (issue #17), written by our code.

``generate(count, data_dir, seed)`` returns :class:`~anonimed.document.Document` objects named ``STYLE-synth-NNNNN``,
spread evenly over the styles.  Every value is invented or drawn from the shared data folder's lists at generation
time (names, towns, hospitals, street types, occupations, sentences of published case reports as clinical filler);
PHI is written through frames (living with, referred by, keys and values...) and annotated by the styles set's
conventions as it is written, so offsets are exact by construction.  Seeded: the same seed gives the same notes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from anonimed.document import Document

__all__ = ["ALL_STYLES", "DEFAULT_DATA_DIR", "generate"]

ALL_STYLES: tuple[str, ...] = ("narrativa", "catala", "radiologia", "primaria", "cabeceras")
DEFAULT_DATA_DIR = Path("..") / "shared" / "data"


def generate(
    count: int, data_dir: str | Path = DEFAULT_DATA_DIR, seed: int = 0, styles: Sequence[str] = ALL_STYLES
) -> list[Document]:
    """``count`` notes, the styles taking turns; raises ``FileNotFoundError`` naming ``data_dir`` when it is missing."""
    # Imported here: the writers pull in Faker and the word lists, and ``anonimed``'s every command imports this
    # package for its style names.
    from anonimed.train.synthetic.sources import load_sources
    from anonimed.train.synthetic.styles import WRITERS
    from anonimed.train.synthetic.values import Builder, Values

    unknown = [s for s in styles if s not in WRITERS]
    if unknown or not styles:
        raise ValueError(f"unknown styles {unknown}; choose among {', '.join(ALL_STYLES)}")
    sources = load_sources(str(Path(data_dir).resolve()))
    documents = []
    numbers = dict.fromkeys(styles, 0)
    for index in range(count):
        style = styles[index % len(styles)]
        rng = random.Random(f"{seed}:{style}:{numbers[style]}")
        values = Values(rng, sources, catalan=style == "catala")
        builder = Builder()
        WRITERS[style](values, builder, values.person())
        numbers[style] += 1
        documents.append(builder.document(f"{style}-synth-{numbers[style]:05d}", style))
    return documents
