"""The review queue of a folder of notes: which note comes next, its spans, saving a reviewed note, and the export
that ``anonimed train --train`` reads.

A folder holds ``NAME.txt`` notes and, for some, ``NAME.ann`` (BRAT): a note with an ``.ann`` shows its spans, one
without shows the model's.  Saving writes the note's ``.ann`` atomically and records it as reviewed in
``.anonimed-review.json`` beside the notes (written atomically too, under a lock, so that several workers can share
the folder).
"""

from __future__ import annotations

import fcntl
import importlib
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.formats.brat import format_ann, read_brat, write_ann
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import read_text, write_files_atomic, write_text_atomic
from anonimed.predict import predict_document
from anonimed.schema import canonical_label

STATE_FILE = ".anonimed-review.json"
_LOCK_FILE = ".anonimed-review.lock"
ORDERS = ("name", "uncertainty")


@dataclass(frozen=True)
class QueueEntry:
    id: str
    score: float | None  # the ranking's or the model's uncertainty (None when ordered by name)


@dataclass(frozen=True)
class NoteForReview:
    document: Document
    origin: str  # "ann": the spans of its .ann file; "model": the detector's
    reviewed: bool


class ReviewFolder:
    """The notes of ``directory`` in review order: by the ranking of ``order_file`` (``anonimed corpus rank --json``;
    notes it does not list come after, by name), else by the model's uncertainty (``by="uncertainty"``, most
    uncertain first), else by file name.  ``detector`` gives the model that annotates notes without an ``.ann`` and
    scores uncertainty; it is called once, when first needed."""

    def __init__(
        self,
        directory: str | Path,
        detector: Callable[[], Detector] | None = None,
        order_file: str | Path | None = None,
        by: str = "name",
    ) -> None:
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise FormatError(self.directory, "is not a directory")
        if by not in ORDERS:
            raise ValueError(f"unknown review order {by!r}; choose one of {', '.join(ORDERS)}")
        if order_file is not None and by != "name":
            raise ValueError("give a ranking file or an order by uncertainty, not both")
        self._paths = {path.stem: path for path in sorted(self.directory.glob("*.txt")) if path.is_file()}
        if not self._paths:
            raise FormatError(self.directory, "holds no .txt notes to review")
        self._detector_factory = detector
        self._detector: Detector | None = None
        if order_file is not None:
            self.order = "ranking"
            self.queue = _ranked(self._paths, _read_ranking(Path(order_file)))
        elif by == "uncertainty":
            self.order = "uncertainty"
            self.queue = self._by_uncertainty()
        else:
            self.order = "name"
            self.queue = [QueueEntry(name, None) for name in self._paths]

    @classmethod
    def check(cls, directory: str | Path, order_file: str | Path | None = None, by: str = "name") -> None:
        """Raise the error a review of ``directory`` would meet at start, without loading a model: a missing
        folder, no notes, a bad ranking file, or no uncertainty module."""
        cls(directory, order_file=order_file)
        if by == "uncertainty":
            _uncertainty_module()

    @property
    def detector(self) -> Detector:
        if self._detector is None:
            if self._detector_factory is None:
                raise ValueError("this review has no model to annotate notes that have no .ann file")
            self._detector = self._detector_factory()
        return self._detector

    def reviewed(self) -> dict[str, str]:
        """Each reviewed note's id and when it was saved (ISO 8601, UTC)."""
        path = self.directory / STATE_FILE
        if not path.exists():
            return {}
        try:
            state = json.loads(read_text(path))
            reviewed = state["reviewed"]
        except (ValueError, KeyError, TypeError) as error:
            raise FormatError(path, f"is not a review state file: {error}") from None
        return {str(name): str(when) for name, when in reviewed.items()}

    def note(self, note_id: str) -> NoteForReview:
        path = self._path(note_id)
        reviewed = note_id in self.reviewed()
        if path.with_suffix(".ann").exists():
            return NoteForReview(read_brat(path), "ann", reviewed)
        document = Document(note_id, read_text(path), metadata={"path": str(path)})
        return NoteForReview(predict_document(self.detector, document), "model", reviewed)

    def note_text(self, note_id: str) -> str:
        return read_text(self._path(note_id))

    def save(self, note_id: str, spans: Iterable[Span]) -> None:
        """Write the note's ``.ann`` with ``spans`` (labels checked, offsets inside the text) and mark it reviewed."""
        path = self._path(note_id)
        spans = [span.with_label(canonical_label(span.label)) for span in spans]
        document = Document(note_id, self.note_text(note_id)).with_spans(spans)  # raises on a span outside the text
        write_ann(document, path.with_suffix(".ann"))
        with self._state_lock():
            reviewed = self.reviewed()
            reviewed[note_id] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            write_text_atomic(self.directory / STATE_FILE, json.dumps({"reviewed": reviewed}, indent=1) + "\n")

    def export(self, out_dir: str | Path) -> int:
        """Copy every reviewed note (``NAME.txt`` and its ``NAME.ann``) into ``out_dir``: a folder that ``anonimed
        train --train`` reads.  Returns how many notes were written."""
        out_dir = Path(out_dir)
        if out_dir.resolve() == self.directory.resolve():
            raise ValueError(f"{out_dir}: the export folder must differ from the review folder")
        count = 0
        for note_id in self.reviewed():
            if note_id not in self._paths:  # a note removed from the folder after its review
                continue
            document = read_brat(self._paths[note_id])
            write_files_atomic(
                {out_dir / f"{note_id}.txt": document.text, out_dir / f"{note_id}.ann": format_ann(document)}
            )
            count += 1
        return count

    def _path(self, note_id: str) -> Path:
        # Ids are looked up, never joined into a path: a request cannot reach a file outside the folder.
        try:
            return self._paths[note_id]
        except KeyError:
            raise KeyError(f"no note {note_id!r} in the review folder") from None

    @contextmanager
    def _state_lock(self) -> Iterator[None]:
        with open(self.directory / _LOCK_FILE, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _by_uncertainty(self) -> list[QueueEntry]:
        uncertainty = _uncertainty_module()
        documents = [Document(name, read_text(path)) for name, path in self._paths.items()]
        scores: dict[str, float] = uncertainty.uncertainty_scores(self.detector, documents)
        ordered = sorted(self._paths, key=lambda name: (-scores.get(name, 0.0), name))
        return [QueueEntry(name, scores.get(name)) for name in ordered]


def _uncertainty_module() -> ModuleType:
    try:  # imported on demand: only this order needs it
        return importlib.import_module("anonimed.corpus.uncertainty")
    except ImportError as error:
        raise ValueError(f"ordering by uncertainty needs anonimed.corpus.uncertainty ({error})") from None


def _read_ranking(path: Path) -> list[tuple[str, float]]:
    """The ``(id, score)`` pairs of a ranking JSON (``{"documents": [{"id": ..., "score": ...}, ...]}``), in order."""
    try:
        ranking = json.loads(read_text(path))
        return [(str(entry["id"]), float(entry["score"])) for entry in ranking["documents"]]
    except (ValueError, KeyError, TypeError) as error:
        raise FormatError(
            path, f"is not a ranking of 'anonimed corpus rank --json' ({{'documents': [{{'id', 'score'}}]}}): {error}"
        ) from None


def _ranked(paths: dict[str, Path], ranking: Sequence[tuple[str, float]]) -> list[QueueEntry]:
    listed = {name: score for name, score in ranking if name in paths}
    queue = [QueueEntry(name, score) for name, score in listed.items()]
    return queue + [QueueEntry(name, None) for name in paths if name not in listed]
