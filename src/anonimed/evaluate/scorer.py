"""Score predictions against gold annotations exactly as docs/evaluation.md defines MEDDOCAN scoring.

Where the organisers' scorer and that definition part, the definition is followed: a gold document without a
prediction is an error (their scorer silently leaves the document out), and a document without an official sentence
file is counted by :func:`anonimed.text.sentences.split_sentences` (theirs gives a leak of "NA").  Labels are scored
as given, never renamed or rejected, like theirs: an unknown predicted label is a wrong type in subtask 1 and counts
like any other in subtask 2.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from anonimed.document import Document, Span
from anonimed.evaluate.counts import Counts
from anonimed.evaluate.matching import (
    character_counts,
    confusion_pairs,
    merged_counts,
    offsets_of,
    per_type_counts,
    set_counts,
    token_counts,
)
from anonimed.evaluate.report import EvaluationReport, ordered_types
from anonimed.formats.brat import parse_ann, read_brat
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import read_text
from anonimed.schema import label_in_scheme
from anonimed.text.sentences import split_sentences

Prediction = Document | Iterable[Span]

_LINE_END = re.compile(r"\r\n|\r|\n")


class MissingPredictionError(ValueError):
    """A gold document has no prediction: scoring it as empty would hide a broken run."""


def score(
    gold: Mapping[str, Document] | Iterable[Document],
    predicted: Mapping[str, Prediction] | Iterable[Document],
    sentence_counts: Mapping[str, int] | None = None,
    notes: Iterable[str] = (),
    scheme: str = "meddocan",
) -> EvaluationReport:
    """Evaluate ``predicted`` against ``gold``, documents matched by id.

    ``predicted`` maps each gold id to a :class:`Document` (same text as the gold one) or to its spans; predictions
    for ids that are not in ``gold`` are ignored.  ``sentence_counts`` gives the official number of sentences of a
    document; documents it lacks are counted with our sentence splitter.  ``notes`` are carried into the report.
    ``scheme="coarse"`` scores both sides in the six coarse classes (:func:`anonimed.schema.label_in_scheme`).
    """
    gold_documents = _documents_by_id(gold)
    predictions = _by_id(predicted)
    missing = sorted(gold_documents.keys() - predictions.keys())
    if missing:
        raise MissingPredictionError(f"{len(missing)} gold document(s) have no prediction: {_listing(missing)}")
    sentence_counts = sentence_counts or {}
    subtask1 = strict = merged = tokens = characters = Counts()
    per_type: dict[str, Counts] = {}
    confusion: Counter[tuple[str, str]] = Counter()
    sentences = split_counted = 0
    for document_id, document in gold_documents.items():
        gold_items = _items(document.spans, scheme)
        predicted_items = _items(_spans_for(document, predictions[document_id]), scheme)
        gold_offsets, predicted_offsets = offsets_of(gold_items), offsets_of(predicted_items)
        subtask1 += set_counts(gold_items, predicted_items)
        strict += set_counts(gold_offsets, predicted_offsets)
        merged += merged_counts(gold_offsets, predicted_offsets, document.text)
        tokens += token_counts(gold_offsets, predicted_offsets, document.text)
        characters += character_counts(gold_offsets, predicted_offsets)
        for label, counts in per_type_counts(gold_items, predicted_items).items():
            per_type[label] = per_type.get(label, Counts()) + counts
        confusion += confusion_pairs(gold_items, predicted_items)
        if document_id in sentence_counts:
            sentences += sentence_counts[document_id]
        else:
            sentences += len(split_sentences(document.text))
            split_counted += 1
    notes = list(notes)
    if scheme != "meddocan":
        notes.append(f"scored in the {scheme} scheme: labels mapped to its classes, spans it counts no PHI left out")
    if split_counted:
        notes.append(
            f"sentences of {split_counted} of {len(gold_documents)} documents counted by anonimed's sentence splitter "
            "(no official sentence file): the leak is not the official figure"
        )
    return EvaluationReport(
        documents=len(gold_documents),
        sentences=sentences,
        documents_with_split_sentences=split_counted,
        subtask1=subtask1,
        subtask2_strict=strict,
        subtask2_merged=merged,
        tokens=tokens,
        characters=characters,
        per_type={label: per_type.get(label, Counts()) for label in ordered_types(set(per_type))},
        confusion=confusion,
        notes=tuple(notes),
    )


def evaluate_dirs(
    gold_dir: str | Path, pred_dir: str | Path, sentences_dir: str | Path | None = None, scheme: str = "meddocan"
) -> EvaluationReport:
    """Score the BRAT predictions ``PRED_DIR/NAME.ann`` against the gold ``GOLD_DIR/NAME.ann`` + ``NAME.txt``.

    Predictions are read against the gold text (``PRED_DIR/NAME.txt`` is not needed) and, as by the organisers'
    scorer, only their labels and offsets count: the covered-text column is not checked.  Sentence counts come from
    ``SENTENCES_DIR/NAME.ann`` (one line a sentence); without ``sentences_dir`` the ``sentences`` folder beside
    ``GOLD_DIR`` is used when there is one, as in the MEDDOCAN layout (``dev/brat``, ``dev/sentences``).
    """
    gold_dir, pred_dir = Path(gold_dir), Path(pred_dir)
    if not pred_dir.is_dir():
        raise FormatError(pred_dir, "is not a directory")
    if not gold_dir.is_dir():
        raise FormatError(gold_dir, "is not a directory")
    # The gold documents are the annotation files, as for the organisers' scorer; each needs its NAME.txt.
    gold = [read_brat(ann.with_suffix(".txt"), ann, check_labels=False) for ann in sorted(gold_dir.glob("*.ann"))]
    if not gold:
        raise FormatError(gold_dir, "holds no gold annotation files (NAME.ann beside NAME.txt)")
    missing = [pred_dir / f"{document.id}.ann" for document in gold if not (pred_dir / f"{document.id}.ann").exists()]
    if missing:
        raise MissingPredictionError(
            f"{pred_dir}: {len(missing)} gold document(s) of {gold_dir} have no prediction file: {_listing(missing)}"
        )
    predictions = {document.id: _read_prediction(pred_dir / f"{document.id}.ann", document.text) for document in gold}
    notes = []
    extra = sorted({path.stem for path in pred_dir.glob("*.ann")} - {document.id for document in gold})
    if extra:
        notes.append(f"{len(extra)} prediction file(s) without a gold document ignored: {_listing(extra)}")
    if sentences_dir is None and (gold_dir.parent / "sentences").is_dir():
        sentences_dir = gold_dir.parent / "sentences"
    counts = read_sentence_counts(sentences_dir, [document.id for document in gold]) if sentences_dir else {}
    if counts:
        notes.append(f"sentence counts of {len(counts)} documents from the official files in {sentences_dir}")
    return score(gold, predictions, counts, notes, scheme)


def read_sentence_counts(directory: str | Path, document_ids: Iterable[str]) -> dict[str, int]:
    """Official sentence counts: the number of lines of ``DIRECTORY/ID.ann``, for the ids that have such a file."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FormatError(directory, "sentence folder is not a directory")
    counts = {}
    for document_id in document_ids:
        path = directory / f"{document_id}.ann"
        if path.exists():
            counts[document_id] = _line_count(read_text(path))
    return counts


def _line_count(content: str) -> int:
    # Lines as Python's text-mode file iteration sees them (\n, \r\n and \r end a line), which is how the
    # organisers' scorer counts; str.splitlines would also break at form feeds and other separators.
    return len(_LINE_END.findall(content)) + (1 if content and content[-1] not in "\r\n" else 0)


def _read_prediction(path: Path, text: str) -> list[Span]:
    # Lines as the organisers' scorer reads them (split at \n, \r\n or \r, then stripped), cut to
    # 'ID<TAB>LABEL START END': the covered text is not part of what is scored, so it is not checked either.
    lines = _LINE_END.split(read_text(path))
    offsets_only = "\n".join("\t".join(line.strip().split("\t")[:2]) for line in lines)
    return parse_ann(offsets_only, text, path, check_labels=False)


def _items(spans: Iterable[Span], scheme: str) -> set[tuple[str, int, int]]:
    """The (label, start, end) keys that ``scheme`` scores (:attr:`Span.key`)."""
    items = set()
    for span in spans:
        label = label_in_scheme(span.label, scheme)
        if label is not None:
            items.add((label, span.start, span.end))
    return items


def _spans_for(gold: Document, prediction: Prediction) -> list[Span]:
    if isinstance(prediction, Document):
        if prediction.text != gold.text:
            raise ValueError(f"document {gold.id!r}: the predicted document's text differs from the gold text")
        return prediction.spans
    spans = list(prediction)
    gold.validate_spans(spans)
    return spans


def _by_id(documents: Mapping[str, Prediction] | Iterable[Document]) -> Mapping[str, Prediction]:
    if isinstance(documents, Mapping):
        return documents
    return _documents_by_id(documents)


def _documents_by_id(documents: Mapping[str, Document] | Iterable[Document]) -> Mapping[str, Document]:
    if isinstance(documents, Mapping):
        return documents
    by_id: dict[str, Document] = {}
    for document in documents:
        if document.id in by_id:
            raise ValueError(f"two documents share the id {document.id!r}")
        by_id[document.id] = document
    return by_id


def _listing(names: list, shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(str(name) for name in names[:shown]) + more
