"""Detection on the form of a note that the models read (composed, Catalan ``l·l`` as ``ll``, values under a row of
keys after their keys: see :mod:`anonimed.text.normalize`), spans mapped back to the note's own characters.

On MEDDOCAN dev notes rewritten with decomposed accents, the default model fell from subtask-1 F1 .98 to .87 (80
notes) without this, and is back to .98 with it: its features and vocabularies were learnt on composed text.
"""

from __future__ import annotations

from dataclasses import replace

from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.text.normalize import detection_form


class ComposedText:
    """A detector that reads the detection form of each note and answers with spans on the note's own characters."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        mapping = detection_form(document.text)
        if mapping is None:
            return self.detector.detect(document)
        text, starts, ends = mapping
        spans = self.detector.detect(Document(document.id, text, metadata=document.metadata))
        # A span over a key written before its value, alone, goes back to nothing.
        return [
            replace(span, start=starts[span.start], end=ends[span.end - 1])
            for span in spans
            if starts[span.start] < ends[span.end - 1]
        ]
