"""The Python API of the whole flow: text → Document → detector → spans → operators → de-identified text.

>>> from anonimed.deidentify import Deidentifier
>>> result = Deidentifier(seed=1).deidentify("Paciente: Ernesto Rivera Bueno, 03/03/1946.")  # doctest: +SKIP
>>> result.text  # doctest: +SKIP
'Paciente: Julián Soler Pardo, 27/01/1944.'
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.formats import get_format
from anonimed.formats.brat import read_brat
from anonimed.formats.errors import FormatError, describe_failure
from anonimed.formats.jsonl import format_jsonl_line
from anonimed.formats.textio import atomic_writer, decode_text, read_text, write_files_atomic, write_text_atomic
from anonimed.transform import (
    Keyring,
    Replacement,
    SurrogateContext,
    TransformConfig,
    apply_plan,
    build_config,
    covering_spans,
    load_settings,
)


@dataclass(frozen=True)
class Result:
    """What :meth:`Deidentifier.deidentify` gives: the input document with the spans acted on, the new text, the
    spans of the new text, and for each input span its output span (None when the operator removed it)."""

    input: Document
    text: str
    replacements: tuple[Replacement, ...]

    @property
    def spans(self) -> list[Span]:
        return [r.output for r in self.replacements if r.output is not None]

    @property
    def mapping(self) -> dict[Span, Span | None]:
        return {r.input: r.output for r in self.replacements}

    @property
    def document(self) -> Document:
        """The de-identified document (same id and metadata) with its spans on the replacements."""
        return Document(self.input.id, self.text, self.spans, dict(self.input.metadata))


# De-identification favours recall: a missed name is a leak, an extra masked word is not (BENCHMARKS.md measures both).
SHIPPED_MODEL_VOTE = "recall"


def load_model(model: str | Path | None = None, vote: str | None = None) -> Detector:
    """The detector that de-identification uses: :func:`anonimed.models.load_detector`, except that the shipped
    model runs with its ``recall`` vote when no ``vote`` is named (``predict`` keeps its ``balanced`` one)."""
    from anonimed.models import load_detector  # deferred: loading a model is the slow part

    if vote is None and model in (None, "default"):
        vote = SHIPPED_MODEL_VOTE
    return load_detector(model, vote)


class Deidentifier:
    """De-identifies notes with a detector and per-type operators.

    ``model``: a :class:`~anonimed.detect.base.Detector`, a model name or folder for
    :func:`anonimed.models.load_detector`, or None for the shipped model (loaded on first use, and not at all when
    only gold spans are transformed).  ``vote``: an ensemble's vote setting; the shipped model de-identifies with its
    ``recall`` vote unless told otherwise (see :func:`load_model`).  ``operators``: a :class:`TransformConfig`, a settings mapping or the path of a
    YAML/TOML file (see :mod:`anonimed.transform.config`), or CLI-style specs (``["FECHAS=mask:keep"]``).  ``key``:
    secret bytes or a key file; with it surrogates and pseudonyms are stable across documents and runs.  ``seed``:
    reproducible output without a key (each document then has its own surrogates).
    """

    def __init__(
        self,
        model: Detector | str | Path | None = None,
        operators: TransformConfig | Mapping[str, Any] | str | Path | Iterable[str] | None = None,
        key: bytes | str | Path | None = None,
        seed: int | None = None,
        vote: str | None = None,
    ) -> None:
        self.keyring = Keyring(key, seed)
        self.config = _config(operators, self.keyring.secret if key is not None else None)
        self._model = model
        self._vote = vote

    @property
    def detector(self) -> Detector:
        if not isinstance(self._model, Detector):
            self._model = load_model(self._model, self._vote)
        return self._model

    def deidentify(
        self, text_or_document: str | Document, document_id: str = "text", patient: str | None = None
    ) -> Result:
        """Detect PHI in the text (a document's own spans are ignored) and replace it.

        ``patient`` names the patient, so that all of their notes get one date offset (else each note has its own).
        """
        if isinstance(text_or_document, Document):
            document = text_or_document
        else:
            document = Document(document_id, text_or_document)
        if patient is not None:
            document = Document(document.id, document.text, document.spans, {**document.metadata, "patient": patient})
        detected = document.with_spans(self.detector.detect(document))
        return self.transform(detected)

    def transform(self, document: Document) -> Result:
        """Replace the spans the document already carries (gold annotations, or spans found elsewhere).

        Spans that overlap are first merged into one span over all their characters (see :func:`covering_spans`),
        so that no character of any span is left as it was.
        """
        document = document.with_spans(covering_spans(document.spans))
        context = SurrogateContext(document, self.keyring, self.config.options)
        transformed = apply_plan(document, self.config.plan, context)
        return Result(document, transformed.text, transformed.replacements)


def _config(
    operators: TransformConfig | Mapping[str, Any] | str | Path | Iterable[str] | None, key: bytes | None
) -> TransformConfig:
    if operators is None:
        return build_config(key=key)
    if isinstance(operators, TransformConfig):
        return operators
    if isinstance(operators, Mapping):
        return build_config(settings=operators, key=key)
    if isinstance(operators, Path) or (
        isinstance(operators, str) and Path(operators).suffix in (".yaml", ".yml", ".toml", ".json")
    ):
        return build_config(settings=load_settings(operators), key=key)
    if isinstance(operators, str):
        return build_config([operators], key=key)
    return build_config(list(operators), key=key)


# --- Batches of files: what ``anonimed deidentify`` runs ----------------------------------------------------------

OUTPUT_FORMATS = ("text", "brat", "xml", "jsonl")
STDIO = "-"


@dataclass
class BatchSummary:
    documents: int = 0
    spans: Counter = field(default_factory=Counter)
    failures: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        failed = f", {len(self.failures)} failed" if self.failures else ""
        spans = sum(self.spans.values())
        head = f"{self.documents} documents de-identified, {spans} PHI spans in {self.seconds:.1f} s{failed}"
        return [head] + [f"  {label}: {count}" for label, count in self.spans.most_common()]


@dataclass(frozen=True)
class _Source:
    """One input note: where it is read from and where (relative to OUTPUT) its results go."""

    path: Path | None  # None: standard input
    relative: Path


def deidentify_files(
    deidentifier: Deidentifier,
    input_path: str | Path,
    output_path: str | Path,
    output_format: str = "text",
    gold_spans: bool = False,
    audit_path: str | Path | None = None,
    audit_originals: bool = False,
    progress: Callable[[list[Any]], Iterable[Any]] = lambda items: items,
    encoding: str = "utf-8",
    errors: str = "strict",
) -> BatchSummary:
    """De-identify a file, a folder of ``*.txt`` (recursively) or standard input (``-``) into ``output_path``.

    ``text``: the new text (a file, a folder mirroring the input, or ``-``); ``brat``/``xml``: a folder of files with
    the spans of the new text; ``jsonl``: one file (or ``-``).  ``gold_spans`` takes the spans from the ``.ann``
    beside each note instead of the detector.  A note that fails is recorded with its file name and nothing is written
    for it; the others go on.  Inputs are never overwritten.  ``encoding`` and ``errors`` say how notes are decoded.

    Fail-closed: nothing is ever written for a note that failed, a note's files (``brat``: text and annotations) are
    written both or neither, and when a write into the one ``jsonl`` file (or the audit) fails, that file is not
    written at all and every note meant for it counts as failed.
    """
    if output_format not in OUTPUT_FORMATS:
        raise ValueError(f"unknown output format {output_format!r}; choose one of {', '.join(OUTPUT_FORMATS)}")
    sources = _sources(Path(input_path) if str(input_path) != STDIO else None)
    if gold_spans and any(source.path is None for source in sources):
        raise ValueError("--gold-spans needs notes in files (their .ann beside them), not standard input")
    output = None if str(output_path) == STDIO else Path(output_path)
    _refuse_overwrite(sources, input_path, output)
    # A single note as text goes to the file OUTPUT, unless OUTPUT is a folder; a folder of notes mirrors into OUTPUT.
    into_folder = output is not None and (Path(input_path).is_dir() or output.is_dir())
    summary = BatchSummary()
    started = time.perf_counter()
    done: list[tuple[str, Counter]] = []  # each written note and its span counts, until the shared files are closed
    collects = output is None or output_format == "jsonl"  # every note goes into one stream
    try:
        with ExitStack() as stack:
            collection = _collection(stack, output, output_format, len(sources))
            audit = stack.enter_context(atomic_writer(audit_path)) if audit_path is not None else None
            for source in progress(sources):
                name = _name(source)
                try:
                    document = _read(source, gold_spans, encoding, errors)
                    result = deidentifier.transform(document) if gold_spans else deidentifier.deidentify(document)
                except Exception as error:
                    summary.failures[name] = describe_failure(error)
                    continue
                try:
                    written = _write(result, source, output, output_format, collection, into_folder)
                except ValueError as error:  # the note cannot be put in this format: found before a byte is written
                    summary.failures[name] = describe_failure(error)
                    continue
                except OSError as error:
                    if collects:  # the shared stream may now hold part of this note: give it up
                        raise
                    summary.failures[name] = describe_failure(error)
                    continue
                if audit is not None:
                    audit.write(_audit_line(result, name, written, audit_originals))
                done.append((name, Counter(r.input.label for r in result.replacements)))
    except OSError as error:
        # Writing the jsonl file or the audit failed, now or when it was closed: the with block removed it.
        shared = [str(p) for p in (str(output or STDIO) if collects else None, audit_path) if p is not None]
        problem = f"{' and '.join(shared)} not written: {describe_failure(error)}"
        _give_up_shared_output(summary, sources, done, problem, notes_lost=collects)
        if not collects:
            summary.failures[str(audit_path)] = f"not written: {describe_failure(error)}"
    else:
        for _, counts in done:
            summary.documents += 1
            summary.spans.update(counts)
    summary.seconds = time.perf_counter() - started
    return summary


def _name(source: _Source) -> str:
    return str(source.path) if source.path else "<stdin>"


def _give_up_shared_output(
    summary: BatchSummary, sources: list[_Source], done: list[tuple[str, Counter]], problem: str, notes_lost: bool
) -> None:
    """Account for a batch stopped by a shared file that could not be written.

    ``notes_lost``: the notes went into that file (jsonl), so none of them is de-identified anywhere; otherwise (the
    audit failed) the notes already written to files of their own stay written and count.  Notes not reached yet fail.
    """
    for name, counts in done:
        if notes_lost:
            summary.failures[name] = problem
        else:
            summary.documents += 1
            summary.spans.update(counts)
    finished = {name for name, _ in done}
    for source in sources:
        name = _name(source)
        if name not in finished and name not in summary.failures:
            summary.failures[name] = f"not de-identified: {problem}"


def _sources(input_path: Path | None) -> list[_Source]:
    if input_path is None:
        return [_Source(None, Path("stdin.txt"))]
    if input_path.is_dir():
        files = sorted(p for p in input_path.rglob("*.txt") if p.is_file())
        if not files:
            raise FormatError(input_path, "holds no .txt notes")
        return [_Source(p, p.relative_to(input_path)) for p in files]
    if not input_path.is_file():
        raise FormatError(input_path, "does not exist")
    return [_Source(input_path, Path(input_path.name))]


def _refuse_overwrite(sources: list[_Source], input_path: str | Path, output: Path | None) -> None:
    if output is None or str(input_path) == STDIO:
        return
    source_root = Path(input_path).resolve()
    target = output.resolve()
    if target == source_root or (source_root.is_dir() and source_root in target.parents):
        raise ValueError(f"{output}: the output must not be the input or lie inside it (inputs are never overwritten)")
    inputs = {s.path.resolve() for s in sources if s.path}
    inputs |= {p.with_suffix(".ann") for p in inputs}
    if target in inputs:
        raise ValueError(f"{output}: is an input file (inputs are never overwritten)")


def _collection(stack: ExitStack, output: Path | None, output_format: str, count: int) -> IO[str] | None:
    """The one stream that all documents go to (JSONL, or text to stdout); None when each document has its files."""
    if output_format == "jsonl":
        return sys.stdout if output is None else stack.enter_context(atomic_writer(output))
    if output is None:
        if output_format != "text" or count != 1:
            raise ValueError("output '-' (standard output) takes one note as text, or any number as jsonl")
        return sys.stdout
    return None


def _read(source: _Source, gold_spans: bool, encoding: str, errors: str) -> Document:
    if source.path is None:
        text = decode_text(sys.stdin.buffer.read(), "<stdin>", encoding, errors)
        return Document("stdin", text, metadata={"path": STDIO})
    if gold_spans:
        if not source.path.with_suffix(".ann").is_file():
            raise FormatError(source.path.with_suffix(".ann"), "does not exist (--gold-spans reads the spans from it)")
        return read_brat(source.path, encoding=encoding, errors=errors)
    return Document(source.path.stem, read_text(source.path, encoding, errors), metadata={"path": str(source.path)})


def _write(
    result: Result,
    source: _Source,
    output: Path | None,
    output_format: str,
    collection: IO[str] | None,
    into_folder: bool,
) -> str:
    """Write one result; returns where it went (for the audit)."""
    document = result.document
    if collection is not None:
        collection.write(format_jsonl_line(document) if output_format == "jsonl" else result.text)
        return str(output or STDIO)
    assert output is not None
    if output_format == "text":
        target = output / source.relative if into_folder else output
        write_text_atomic(target, result.text)
        return str(target)
    folder = output / source.relative.parent
    write_files = get_format(output_format).files
    assert write_files is not None, f"{output_format} is written as files"
    contents = write_files(document, "BIOES")
    write_files_atomic({folder / f"{document.id}{suffix}": content for suffix, content in contents.items()})
    return str(folder / document.id)


def _audit_line(result: Result, name: str, written: str, with_originals: bool) -> str:
    """One JSON line: the document, where it went, and every replaced span (its original text only on request)."""
    spans = []
    for replacement in result.replacements:
        entry: dict[str, Any] = {
            "label": replacement.input.label,
            "input": [replacement.input.start, replacement.input.end],
            "output": [replacement.output.start, replacement.output.end] if replacement.output else None,
            "score": replacement.input.score,
            "source": replacement.input.source,
            "operator": replacement.operator,
        }
        if with_originals:
            entry["original"] = replacement.original
        spans.append(entry)
    record = {"document": result.input.id, "input": name, "output": written, "spans": spans}
    return json.dumps(record, ensure_ascii=False) + "\n"
