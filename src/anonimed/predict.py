"""The prediction contract that every model follows: a folder of ``*.txt`` notes in, BRAT annotations out."""

from __future__ import annotations

import logging
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from anonimed.detect.base import Detector
from anonimed.document import Document
from anonimed.formats.brat import write_ann
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import read_text
from anonimed.text.tokenize import tokenize

log = logging.getLogger(__name__)


@dataclass
class PredictSummary:
    documents: int = 0
    tokens: int = 0
    spans: Counter = field(default_factory=Counter)
    failures: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def line(self) -> str:
        rate = self.tokens / self.seconds if self.seconds else 0.0
        failed = f", {len(self.failures)} failed" if self.failures else ""
        return (
            f"{self.documents} documents, {sum(self.spans.values())} PHI spans, {self.tokens} tokens "
            f"in {self.seconds:.1f} s ({rate:,.0f} tokens/s){failed}"
        )


def predict_document(detector: Detector, document: Document) -> Document:
    return document.with_spans(detector.detect(document))


def predict_dir(
    detector: Detector,
    in_dir: str | Path,
    out_dir: str | Path,
    progress: Callable[[Iterable[Path]], Iterable[Path]] = lambda paths: paths,
) -> PredictSummary:
    """Annotate every ``IN_DIR/*.txt`` into ``OUT_DIR/NAME.ann`` and copy the text beside it.

    A note that cannot be read or annotated is recorded in ``failures`` and the others go on; nothing is written for it.
    """
    in_dir, out_dir = Path(in_dir), Path(out_dir)
    if not in_dir.is_dir():
        raise FormatError(in_dir, "is not a directory")
    if out_dir.resolve() == in_dir.resolve():
        raise ValueError(f"{out_dir}: the output folder must differ from the input folder (inputs are never overwritten)")
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = PredictSummary()
    started = time.perf_counter()
    for path in progress(sorted(in_dir.glob("*.txt"))):
        try:
            document = Document(path.stem, read_text(path), metadata={"path": str(path)})
            annotated = predict_document(detector, document)
            write_ann(annotated, out_dir / f"{path.stem}.ann")
            shutil.copyfile(path, out_dir / path.name)
        except (OSError, ValueError) as error:
            summary.failures[str(path)] = str(error)
            log.error("%s: %s", path, error)
            continue
        summary.documents += 1
        summary.tokens += len(tokenize(document.text))
        summary.spans.update(span.label for span in annotated.spans)
    summary.seconds = time.perf_counter() - started
    return summary
