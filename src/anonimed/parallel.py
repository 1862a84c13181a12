"""Detection spread over processes: each loads the model once and detects in the notes it is sent.

The models are not shared between processes (an onnxruntime session cannot be sent to another process), so a
process is told *how* to load the detector (:class:`DetectorSpec`) and loads it once, when it starts.  Only texts go
to the processes and only spans come back; reading notes, replacing PHI and writing files stay in the calling
process, in input order, so that the output is the same as with one process.  Processes start with ``fork`` when
the caller runs no other thread (the CLI): a worker then needs no fresh interpreter and imports nothing again (a 250-note
run with two processes takes 6.0 s instead of 6.7 s); otherwise with ``spawn``, safe whatever threads the caller runs
(a forked child inherits every lock another thread held, and may wait on it for ever).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any, Generic, TypeVar

from anonimed.detect.base import Detector
from anonimed.document import Document, Span

T = TypeVar("T")


def available_cores() -> int:
    """The cores this process may run on (what ``--jobs`` defaults to)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class DetectorSpec:
    """How to load a detector: the model (name or folder), its vote, and rules added to it."""

    model: str | None = None
    vote: str | None = None
    rules: tuple[str, ...] = ()
    rules_win: bool = False

    def check(self) -> None:
        """Fail now, in the calling process, on a model or rules that do not exist or do not read."""
        from anonimed.models import FAST, ModelNotFoundError

        if self.model not in (None, "default", FAST) and not (Path(self.model) / "model.json").is_file():
            raise ModelNotFoundError(f"{self.model}: not a model; give 'default', '{FAST}' or a model folder")
        if self.rules:
            from anonimed.rules import load_rules

            load_rules(list(self.rules))

    def load(self) -> Detector:
        """The detector, loaded in a process that runs it until it ends (the CLI's, or a worker).  The objects the
        load made are then moved out of the garbage collector's reach (``gc.freeze``): they live as long as the
        process, and every full collection would otherwise walk them again (~10 % of a ``fast`` note's time)."""
        from anonimed.models import load_detector

        detector = load_detector(self.model, self.vote)
        if self.rules:
            from anonimed.rules import with_rules

            detector = with_rules(detector, list(self.rules), prefer="rules" if self.rules_win else "model")
        gc.freeze()
        return detector


def start_method() -> str:
    """``fork`` where the platform has it and this process runs one thread, else ``spawn`` (see the module's notes)."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


class DetectionFailed(RuntimeError):
    """Detection raised in a worker process; the message names the problem (never the note's text)."""


_worker_detector: Detector | None = None
_worker_failure = ""


def _start_worker(spec: DetectorSpec) -> None:
    # A failure here must not escape: the pool would start a new worker, which would fail again, for ever.
    global _worker_detector, _worker_failure
    try:
        _worker_detector = spec.load()
    except Exception as error:
        from anonimed.formats.errors import describe_failure

        _worker_failure = f"the model could not be loaded: {describe_failure(error)}"


def _detect(item: tuple[str, str]) -> list[Span] | str:
    from anonimed.formats.errors import describe_failure

    document_id, text = item
    if _worker_detector is None:
        return _worker_failure or "the model could not be loaded"
    try:
        return _worker_detector.detect(Document(document_id, text))
    except Exception as error:  # reported to the caller, which records the note as failed
        return describe_failure(error)


class ParallelDetector:
    """A pool of ``jobs`` processes, each with the detector of ``spec``; use it as a context manager."""

    def __init__(self, spec: DetectorSpec, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"--jobs must be 1 or more, got {jobs}")
        self.spec = spec
        self.jobs = jobs
        self._pool: Pool | None = None

    def __enter__(self) -> ParallelDetector:
        self.spec.check()
        context = multiprocessing.get_context(start_method())
        self._pool = context.Pool(self.jobs, initializer=_start_worker, initargs=(self.spec,))
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._pool is not None:
            if exc[0] is not None:
                self._pool.terminate()
            else:
                self._pool.close()
            self._pool.join()
            self._pool = None

    def detect_all(self, documents: Sequence[Document]) -> Iterator[list[Span] | DetectionFailed]:
        """The spans of each document, in order (a :class:`DetectionFailed` for a note whose detection raised)."""
        yield from self.submit(documents)()

    def submit(self, documents: Sequence[Document]) -> Callable[[], list[list[Span] | DetectionFailed]]:
        """Start detecting in ``documents`` and return at once; calling the result waits for the spans, in order."""
        if self._pool is None:
            raise RuntimeError("use ParallelDetector in a 'with' block")
        items = [(document.id, document.text) for document in documents]
        pending = self._pool.map_async(_detect, items, chunksize=max(1, min(8, len(items) // (4 * self.jobs))))

        def answers() -> list[list[Span] | DetectionFailed]:
            return [DetectionFailed(a) if isinstance(a, str) else a for a in pending.get()]

        return answers


class ReadAhead(Generic[T]):
    """Notes read and detected a batch ahead, over a :class:`ParallelDetector`'s processes, then taken in order.

    The next two batches are sent to the processes before the caller gets the notes of the current one, so the
    processes detect while the caller replaces and writes, and none waits for another at the end of a batch; at most
    three batches are in memory.  A note that cannot be read, or whose detection failed, raises its error when it is
    taken, as it would have with one process.
    """

    AHEAD = 2  # batches in flight: a process that ends its share of one batch goes on with the next

    def __init__(self, detector: ParallelDetector, items: Sequence[T], read: Callable[[T], Document]) -> None:
        self.detector = detector
        self.items = list(items)
        self.read = read
        self.batch = 16 * detector.jobs
        self.done: dict[int, tuple[Document, list[Span]] | Exception] = {}
        self.position = {id(item): index for index, item in enumerate(self.items)}
        self.next_batch = 0
        self.in_flight: list[Callable[[], None]] = []

    def take(self, item: T) -> tuple[Document, list[Span]]:
        index = self.position[id(item)]
        while index not in self.done:
            self._fill()
            self.in_flight.pop(0)()  # wait for the oldest batch
        self._fill()  # the next batches run while the caller works on this one
        outcome = self.done.pop(index)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def _fill(self) -> None:
        while len(self.in_flight) < self.AHEAD and self.next_batch < len(self.items):
            self._send_batch()

    def _send_batch(self) -> None:
        start, end = self.next_batch, min(self.next_batch + self.batch, len(self.items))
        if start >= end:
            raise IndexError("read ahead past the last note")
        self.next_batch = end
        documents: dict[int, Document] = {}
        for index in range(start, end):
            try:
                documents[index] = self.read(self.items[index])
            except Exception as error:  # raised again when the note is taken
                self.done[index] = error
        answers = self.detector.submit(list(documents.values()))

        def collect() -> None:
            for (index, document), spans in zip(documents.items(), answers(), strict=True):
                self.done[index] = spans if isinstance(spans, Exception) else (document, spans)

        self.in_flight.append(collect)
