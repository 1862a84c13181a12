"""The window/CRF baseline of Cotik et al. (2019) as a peer, with ``sklearn-crfsuite``.

Runs in the peers' venv (see benchmarks/peers/compare.py):

    .venv-peers/bin/python benchmarks/peers/cotik_crf.py TRAIN_BRAT_DIR IN_DIR OUT_DIR

Their feature list, on our tokenizer's tokens, one sequence a line of text: the lower-cased word, its 3-character
prefix and 4-character suffix, case and digit flags (all upper, title case, all digits), and the same features of
the previous and next token (the ±1 window); BIO tags.  Trained with L-BFGS and elastic-net regularisation
(c1 = c2 = 0.1, 100 iterations) on every note of TRAIN_BRAT_DIR, then annotates every ``IN_DIR/*.txt`` into
``OUT_DIR/NAME.ann``.  Prints one JSON line: training seconds, annotation seconds, documents.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import sklearn_crfsuite

from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir, write_ann
from anonimed.formats.textio import read_text
from anonimed.text.tagging import spans_to_tags, tags_to_spans
from anonimed.text.tokenize import Token, tokenize


def word_features(word: str, prefix: str) -> dict[str, object]:
    return {
        f"{prefix}lower": word.lower(),
        f"{prefix}upper": word.isupper(),
        f"{prefix}title": word.istitle(),
        f"{prefix}digit": word.isdigit(),
    }


def token_features(tokens: list[Token], index: int) -> dict[str, object]:
    word = tokens[index].text
    features: dict[str, object] = {"bias": 1.0, "prefix3": word[:3], "suffix4": word[-4:], **word_features(word, "")}
    for offset, prefix in ((-1, "-1:"), (1, "+1:")):
        if 0 <= index + offset < len(tokens):
            features.update(word_features(tokens[index + offset].text, prefix))
        else:
            features["BOS" if offset < 0 else "EOS"] = True
    return features


def lines(document: Document) -> list[tuple[list[Token], list[Span]]]:
    """The document's tokens cut at line breaks, each line with the spans that start on it."""
    tokens = tokenize(document.text)
    pieces: list[tuple[list[Token], list[Span]]] = []
    start = 0
    for end in [i + 1 for i, c in enumerate(document.text) if c == "\n"] + [len(document.text)]:
        line_tokens = [t for t in tokens if start <= t.start < end]
        line_spans = [s for s in document.spans if start <= s.start < end]
        if line_tokens:
            pieces.append((line_tokens, line_spans))
        start = end
    return pieces


def train(train_dir: Path) -> sklearn_crfsuite.CRF:
    features, labels = [], []
    for document in read_brat_dir(train_dir):
        for tokens, spans in lines(document):
            features.append([token_features(tokens, i) for i in range(len(tokens))])
            labels.append(spans_to_tags(tokens, spans, "BIO"))
    model = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.1, c2=0.1, max_iterations=100)
    model.fit(features, labels)
    return model


def annotate(model: sklearn_crfsuite.CRF, path: Path, out_dir: Path) -> None:
    document = Document(path.stem, read_text(path))
    spans = []
    for tokens, _ in lines(document):
        tags = model.predict_single([token_features(tokens, i) for i in range(len(tokens))])
        spans += tags_to_spans(tokens, tags, source="cotik-crf")
    write_ann(document.with_spans(spans), out_dir / f"{path.stem}.ann")


def main(train_dir: Path, in_dir: Path, out_dir: Path) -> dict:
    started = time.perf_counter()
    model = train(train_dir)
    trained = time.perf_counter()
    notes = sorted(in_dir.glob("*.txt"))
    for path in notes:
        annotate(model, path, out_dir)
    finished = time.perf_counter()
    return {"train_seconds": trained - started, "run_seconds": finished - trained, "documents": len(notes)}


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))))
