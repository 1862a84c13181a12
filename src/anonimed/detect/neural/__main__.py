"""Measure a neural model folder on MEDDOCAN dev: scores, leak, speed and size (train one with ``anonimed train``).

python -m anonimed.detect.neural measure --data ../shared/data/meddocan --model runs/neural/m
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

from anonimed.detect.neural import load_neural
from anonimed.evaluate import read_sentence_counts, score
from anonimed.formats.brat import read_brat_dir
from anonimed.text.tokenize import tokenize


def _measure(arguments: argparse.Namespace) -> dict:
    dev_docs = read_brat_dir(Path(arguments.data) / "dev" / "brat")
    counts = read_sentence_counts(Path(arguments.data) / "dev" / "sentences", [d.id for d in dev_docs])
    detector = load_neural(arguments.model)  # loading is not part of the timed prediction
    started = time.perf_counter()
    predictions = detector.detect_all(dev_docs)
    seconds = time.perf_counter() - started
    tokens = sum(len(tokenize(d.text)) for d in dev_docs)
    report = score(dev_docs, predictions, counts).to_dict()
    size = sum(path.stat().st_size for path in Path(arguments.model).rglob("*") if path.is_file())  # LM copies too
    return {key: report[key] for key in ("subtask1", "subtask2_strict", "subtask2_merged")} | {
        "documents": len(dev_docs),
        "tokens": tokens,
        "seconds": round(seconds, 2),
        "tokens_per_second": round(tokens / seconds),
        "model_bytes": size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m anonimed.detect.neural")
    commands = parser.add_subparsers(dest="command", required=True)
    measure = commands.add_parser("measure", help="dev scores and speed of a model folder run by onnxruntime")
    measure.add_argument("--data", required=True)
    measure.add_argument("--model", required=True)
    measure.set_defaults(run=_measure)
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    print(json.dumps(arguments.run(arguments), indent=1))


if __name__ == "__main__":
    main()
