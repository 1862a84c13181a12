"""The annotated notes that training reads: BRAT folders, MEDDOCAN's official sentence counts beside them, and the
shared data folder with the gazetteers that augmentation draws from.  Shared by every kind of training."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from anonimed.document import Document
from anonimed.formats.brat import read_brat_dir
from anonimed.formats.errors import FormatError

_GAZETTEER_MARKER = "spanish-names-ine"


def read_annotated(directory: str | Path) -> list[Document]:
    """The notes of a BRAT folder with their spans; a folder without any is an error, not an empty training set."""
    documents = read_brat_dir(directory)
    if not documents:
        raise FormatError(directory, "holds no annotated notes (NAME.txt with NAME.ann)")
    return documents


def official_sentence_counts(dev_dir: str | Path, documents: Sequence[Document]) -> dict[str, int] | None:
    """MEDDOCAN's layout keeps the official sentence splits in ``sentences`` beside ``brat``: the leak needs them."""
    from anonimed.evaluate import read_sentence_counts

    sentences = Path(dev_dir).parent / "sentences"
    return read_sentence_counts(sentences, [d.id for d in documents]) if sentences.is_dir() else None


def find_gazetteers(start: str | Path) -> Path:
    """The shared data folder (the one holding ``spanish-names-ine/``) among ``start`` and its parents."""
    for folder in [Path(start).resolve(), *Path(start).resolve().parents]:
        if (folder / _GAZETTEER_MARKER).is_dir():
            return folder
    raise FormatError(
        start, f"no gazetteer folder ({_GAZETTEER_MARKER}/...) here or above; pass the data folder explicitly"
    )


def portable_path(path: str | Path) -> str:
    """A path as a model folder or a results file records it: never absolute, so that a committed file names no
    machine's folders and reads the same on every machine that keeps the same layout.

    A relative path stays as given; an absolute one becomes relative to the current folder when it lies in it or
    beside it (``../shared/data/meddocan/dev/brat`` from the repository), else only its last three parts are kept
    (``meddocan/dev/brat``: which data, not where it was).
    """
    path = Path(path)
    if not path.is_absolute():
        return path.as_posix()
    try:
        relative = Path(os.path.relpath(path))
    except ValueError:  # another drive (Windows)
        relative = None
    if relative is not None and relative.parts[:2] != ("..", ".."):
        return relative.as_posix()
    return Path(*path.parts[-3:]).as_posix()
