"""The prediction contract that every model follows: a folder of ``*.txt`` notes in, BRAT annotations out."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from anonimed.detect.base import Detector
from anonimed.document import Document
from anonimed.formats.brat import format_ann
from anonimed.formats.errors import FormatError, describe_failure
from anonimed.formats.textio import read_text, write_files_atomic
from anonimed.parallel import ParallelDetector, ReadAhead
from anonimed.schema import canonical_label

log = logging.getLogger(__name__)


@dataclass
class PredictSummary:
    documents: int = 0
    characters: int = 0
    spans: Counter = field(default_factory=Counter)
    failures: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def line(self) -> str:
        # Characters, not tokens: counting tokens would tokenize every note once more (slow on a very long note).
        rate = self.characters / self.seconds if self.seconds else 0.0
        notes_rate = self.documents / self.seconds if self.seconds else 0.0
        failed = f", {len(self.failures)} failed (nothing written for them)" if self.failures else ""
        return (
            f"{self.documents} documents annotated, {sum(self.spans.values())} PHI spans, {self.characters:,} "
            f"characters in {self.seconds:.1f} s ({rate:,.0f} characters/s, {notes_rate:.1f} notes/s){failed}"
        )


def predict_document(detector: Detector, document: Document) -> Document:
    """The document with the detector's spans; a span outside the text or with an unknown label raises ValueError."""
    return checked(document.with_spans(detector.detect(document)))


def checked(annotated: Document) -> Document:
    """``annotated``, after checking that each span's label is a MEDDOCAN type (ValueError otherwise)."""
    for span in annotated.spans:
        canonical_label(span.label)
    return annotated


def predict_dir(
    detector: Detector | ParallelDetector,
    in_dir: str | Path,
    out_dir: str | Path,
    progress: Callable[[Iterable[Path]], Iterable[Path]] = lambda paths: paths,
    encoding: str = "utf-8",
    errors: str = "strict",
) -> PredictSummary:
    """Annotate every ``IN_DIR/*.txt`` into ``OUT_DIR/NAME.ann`` and write its text beside it as ``NAME.txt``.

    The text is written as UTF-8 (what the offsets of the ``.ann`` count on), so a note read with another
    ``encoding`` gets a copy that reads back with the same characters.  A note that cannot be read or annotated, or
    whose files cannot be written, is recorded in ``failures`` and the others go on; nothing is left behind for it
    (the ``.txt`` and ``.ann`` are written both or neither).  ``detector`` may be a :class:`ParallelDetector`
    (``--jobs``): notes are then read and detected in batches over its processes, and written as with one.
    """
    in_dir, out_dir = Path(in_dir), Path(out_dir)
    if not in_dir.is_dir():
        raise FormatError(in_dir, "is not a directory")
    if out_dir.resolve() == in_dir.resolve():
        raise ValueError(
            f"{out_dir}: the output folder must differ from the input folder (inputs are never overwritten)"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = PredictSummary()
    started = time.perf_counter()
    paths = sorted(p for p in in_dir.glob("*.txt") if p.is_file())

    def read(path: Path) -> Document:
        return Document(path.stem, read_text(path, encoding, errors), metadata={"path": str(path)})

    ahead, single = (
        (ReadAhead(detector, paths, read), None) if isinstance(detector, ParallelDetector) else (None, detector)
    )
    for path in progress(paths):
        try:
            if single is not None:
                document = read(path)
                annotated = predict_document(single, document)
            else:
                assert ahead is not None
                document, found = ahead.take(path)
                annotated = checked(document.with_spans(found))
            write_files_atomic(
                {out_dir / f"{path.stem}.ann": format_ann(annotated), out_dir / path.name: document.text}
            )
        except Exception as error:
            summary.failures[str(path)] = describe_failure(error)
            log.error("%s: %s", path, summary.failures[str(path)])
            continue
        summary.documents += 1
        summary.characters += len(document.text)
        summary.spans.update(span.label for span in annotated.spans)
    summary.seconds = time.perf_counter() - started
    return summary
